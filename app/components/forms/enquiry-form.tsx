// Placeholder until the visitor-forms work lands: the contract other pages rely on.
export type ServiceInterest =
  | "dark-web-monitoring"
  | "security-consultancy"
  | "counter-fraud-training"
  | "file-interrogator"
  | "other";

export function EnquiryForm(props: { defaultService?: ServiceInterest; id?: string }) {
  return <form id={props.id} method="post" data-default-service={props.defaultService} />;
}
