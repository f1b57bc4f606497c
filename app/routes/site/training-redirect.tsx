import { redirect } from "react-router";

export function loader() {
  return redirect("/services/counter-fraud-training", 308);
}
