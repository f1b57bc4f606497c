import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [
  { title: "NightWatch | Dark Web Monitoring & Counter Fraud Training" },
  {
    name: "description",
    content:
      "UK dark web monitoring, counter fraud training and security consultancy for banks, KYC teams, police and counter-fraud teams.",
  },
];

export default function Home() {
  return (
    <section className="mx-auto max-w-7xl px-4 py-24">
      <h1 className="max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
        Dark web monitoring and counter fraud training
      </h1>
    </section>
  );
}
