import { data } from "react-router";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import {
  orderAccessIntent,
  orderBankRefundIntent,
  orderBillingIntent,
  orderBookingLinkIntent,
  orderMoveDecisionIntent,
  orderMoveIntent,
  orderNoteIntent,
  orderPaymentIntent,
  orderStatusIntents,
  orderStudentIntent,
} from "#server/forms/order-actions.server.ts";
import { orderPage } from "#server/orders/order-page.server.ts";
import { refundFromForm } from "#server/payments/refunds.server.ts";
import { AdminNotFoundView } from "#app/components/admin/admin-not-found.tsx";
import { OrderPageView } from "#app/components/admin/orders/order-page.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { keepFormOnFailure, type FormAnswer } from "#app/lib/forms.ts";
import type { Route } from "./+types/order";

/**
 * The admin order page (decisions 0015, 0016), opened from the Payments list: buyer and billing
 * details, students, amounts, documents, timeline, internal notes and the order's actions. An
 * unknown or malformed id is the admin not-found view (404).
 */
export async function loader({ params }: Route.LoaderArgs) {
  const page = await orderPage(params.orderId);
  if (!page) return data({ page: null }, { status: 404 });
  return { page };
}

/**
 * The Payments list's actions ('status', 'release'), "Add note", "Refund", "Record Payment",
 * "Record Bank Refund", billing corrections,
 * on-demand access details, "Change student", "E-mail the booking link to the buyer", "Move to
 * another date" and the answer to a booker's request to move.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "order", failureMessage: "Failed to update order status" },
    {
      ...orderStatusIntents(admin),
      note: orderNoteIntent(params.orderId, admin),
      billing: orderBillingIntent(params.orderId, admin),
      access: orderAccessIntent(params.orderId, admin),
      bookingLink: orderBookingLinkIntent(params.orderId, admin),
      student: orderStudentIntent(params.orderId, admin),
      move: orderMoveIntent(params.orderId, admin),
      moveDecision: orderMoveDecisionIntent(params.orderId, admin),
      refund: (form) => refundFromForm(form, admin),
      payment: orderPaymentIntent(params.orderId, admin),
      bankRefund: orderBankRefundIntent(params.orderId, admin),
    },
  );
}

export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminMeta(loaderData?.page ? `Order ${loaderData.page.order.reference}` : "Not found");

export default function Order({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.page) {
    return <AdminNotFoundView detail="There is no order with this reference." />;
  }
  return <OrderPageView page={loaderData.page} answer={actionData as FormAnswer | undefined} />;
}
