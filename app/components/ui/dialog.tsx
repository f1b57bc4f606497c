import type { ComponentProps, ReactNode } from "react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { X } from "lucide-react";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/ui/cn.ts";

export const Dialog = DialogPrimitive.Root;

export const DialogTrigger = DialogPrimitive.Trigger;

export const DialogClose = DialogPrimitive.Close;

export function DialogContent({
  className,
  children,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content>) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/70 data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in" />
      <DialogPrimitive.Content
        className={cn(
          // Capped to the screen: a dialog with a DialogBody keeps its header and footer in view
          // and scrolls the body; any other dialog scrolls as a whole.
          "fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col gap-4 overflow-y-auto rounded-lg border border-border bg-card p-6 text-card-foreground shadow-lg data-[state=closed]:animate-pop-out data-[state=open]:animate-pop-in",
          className,
        )}
        {...props}
      >
        {children}
        <DialogPrimitive.Close
          aria-label="Close"
          className="absolute top-4 right-4 cursor-pointer rounded-sm text-muted-foreground transition-colors hover:text-foreground"
        >
          <X className="size-4" aria-hidden />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      className={cn("flex shrink-0 flex-col gap-1.5 text-center sm:text-left", className)}
      {...props}
    />
  );
}

/**
 * The part of a dialog that scrolls when the dialog is taller than the screen, so that the
 * header and the footer (Cancel, Save) stay in view. Put it between DialogHeader and
 * DialogFooter; a form holding both goes in `DIALOG_FORM`'s column.
 */
export function DialogBody({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      // Reaching out to the dialog's edges keeps the scroll bar there and the fields' focus
      // rings inside the scrolled area.
      className={cn("-mx-6 grid min-h-0 flex-1 gap-4 overflow-y-auto px-6 py-1", className)}
      {...props}
    />
  );
}

/** The classes of a form that holds a DialogBody and a DialogFooter: a column that may shrink. */
export const DIALOG_FORM = "flex min-h-0 flex-1 flex-col gap-4";

export function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      className={cn("flex shrink-0 flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)}
      {...props}
    />
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      className={cn("pr-6 text-lg leading-none font-semibold", className)}
      {...props}
    />
  );
}

export function DialogDescription({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      className={cn("text-sm text-muted-foreground", className)}
      {...props}
    />
  );
}

/** A dialog's window: its title and description, then what it holds. */
export function DialogPanel({
  title,
  description,
  children,
  ...props
}: Omit<ComponentProps<typeof DialogContent>, "title"> & {
  title: ReactNode;
  description: ReactNode;
}) {
  return (
    <DialogContent {...props}>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      {children}
    </DialogContent>
  );
}

/**
 * The inside of a dialog's form (in `DIALOG_FORM`'s column): the fields, which scroll, then the
 * buttons: one that closes the dialog without sending, and `submit`.
 */
export function DialogFormBody({
  busy,
  cancelLabel = "Cancel",
  submit,
  children,
}: {
  /** While the form is being sent: the close button is disabled too. */
  busy: boolean;
  cancelLabel?: string;
  submit: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <DialogBody>{children}</DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline" disabled={busy}>
            {cancelLabel}
          </Button>
        </DialogClose>
        {submit}
      </DialogFooter>
    </>
  );
}

export interface DialogWindowProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  /** Where focus goes back to on closing, when the dialog has no DialogTrigger. */
  returnFocus: () => HTMLElement | null | undefined;
  children: ReactNode;
}

/** A dialog with a title and a description, opened from outside (useLazyDialog loads it). */
export function DialogWindow(props: DialogWindowProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogPanel
        title={props.title}
        description={props.description}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          props.returnFocus()?.focus();
        }}
      >
        {props.children}
      </DialogPanel>
    </Dialog>
  );
}
