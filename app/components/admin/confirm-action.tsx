import type { ComponentProps, ReactElement, ReactNode } from "react";
import { Trash2 } from "lucide-react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";

/**
 * An admin action that asks first: the trigger opens the spec's question, and only the confirm
 * button runs `onConfirm`. Radix's alert dialog keeps focus inside and returns it to the trigger.
 * Without a trigger the question is opened from outside (`open`, `onOpenChange`), and
 * `onCloseAutoFocus` says where focus goes back to.
 */
export function ConfirmAction({
  trigger,
  open,
  onOpenChange,
  onCloseAutoFocus,
  question,
  detail,
  cancelLabel = "Cancel",
  confirmLabel,
  destructive = false,
  confirmDisabled = false,
  onConfirm,
  children,
}: {
  /** The button that opens the question (its accessible name is what tests and readers find). */
  trigger?: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  onCloseAutoFocus?: ComponentProps<typeof AlertDialogContent>["onCloseAutoFocus"];
  question: string;
  detail: ReactNode;
  cancelLabel?: string;
  confirmLabel: string;
  /** Styles the confirm button for an action that removes or ends something. */
  destructive?: boolean;
  /** Until what the question asks for is given (a cancellation's reason). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  /** More than the one-line detail: what will be sent, a choice (a checkbox) that goes with it. */
  children?: ReactNode;
}) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger> : null}
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{question}</AlertDialogTitle>
          <AlertDialogDescription>{detail}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel>{cancelLabel}</AlertDialogCancel>
          <AlertDialogAction
            variant={destructive ? "destructive" : undefined}
            disabled={confirmDisabled}
            onClick={onConfirm}
          >
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * A delete button that asks first, then calls `onConfirm`. The question is the product's fixed
 * sentence word for word ('Are you sure you want to delete this course?'); the line under it names
 * what goes ('The course ‘Fraud Basics’ will be deleted. This cannot be undone.').
 */
export function ConfirmDelete({
  question,
  subject,
  label,
  onConfirm,
  disabled,
}: {
  question: string;
  /** What is deleted, as the start of a sentence: <>The course <b>‘Fraud Basics’</b></>. */
  subject: ReactNode;
  /** The button's accessible name, e.g. 'Delete Fraud Basics'. */
  label: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  return (
    <ConfirmAction
      trigger={
        <Button
          type="button"
          variant="ghost"
          size="icon"
          aria-label={label}
          title={label}
          disabled={disabled}
          className="text-destructive hover:text-destructive"
        >
          <Trash2 aria-hidden />
        </Button>
      }
      question={question}
      detail={<>{subject} will be deleted. This cannot be undone.</>}
      confirmLabel="Delete"
      destructive
      onConfirm={onConfirm}
    />
  );
}
