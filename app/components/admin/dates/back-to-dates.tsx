import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";

/** The way back to the Dates screen from one date's pages (its waiting list, its register). */
export function BackToDates() {
  return (
    <Button asChild variant="ghost" size="sm" className="mb-2 -ml-2">
      <Link to="/admin/dates">
        <ArrowLeft aria-hidden /> Back to Dates
      </Link>
    </Button>
  );
}
