// Placeholder until the visitor-forms work lands.
export function LicenceForm(props: { id?: string }) {
  return <form id={props.id} method="post" />;
}
