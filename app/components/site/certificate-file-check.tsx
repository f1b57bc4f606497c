import { useEffect, useRef, useState, type ChangeEvent, type DragEvent } from "react";

type Check =
  | { state: "idle" }
  | { state: "checking" }
  | { state: "match"; name: string }
  | { state: "mismatch"; name: string }
  | { state: "error" };

/** SHA-256 of a file, lower-case hex, computed in the browser: the file never leaves it. */
async function sha256Of(file: Blob): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Says whether a PDF someone was given is the certificate as issued (decision 0036): the file
 * chosen or dropped is hashed here, in the page, and compared with the issued file's SHA-256.
 * Nothing is uploaded (the input sits in no form). A file chosen before the page's scripts ran
 * is checked as soon as they do.
 */
export function CertificateFileCheck({ expected, number }: { expected: string; number: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [check, setCheck] = useState<Check>({ state: "idle" });
  const [dragging, setDragging] = useState(false);

  async function checkFile(file: File | undefined) {
    if (!file) return;
    setCheck({ state: "checking" });
    try {
      const hash = await sha256Of(file);
      setCheck({ state: hash === expected ? "match" : "mismatch", name: file.name });
    } catch {
      setCheck({ state: "error" });
    }
  }

  useEffect(() => {
    void checkFile(input.current?.files?.[0]);
    // Once, on hydration: later choices arrive through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setDragging(false);
    void checkFile(event.dataTransfer.files[0]);
  }

  return (
    <div className="grid gap-3">
      <label
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`grid cursor-pointer justify-items-center gap-2 rounded-lg border-2 border-dashed p-6 text-center text-sm ${dragging ? "border-primary bg-primary/10" : "border-border"}`}
      >
        <span className="font-medium">Check a certificate file</span>
        <span className="text-muted-foreground">
          Drop the PDF here or choose it. It is checked in your browser and never uploaded.
        </span>
        <input
          ref={input}
          type="file"
          accept="application/pdf,.pdf"
          aria-label={`PDF file to check against certificate ${number}`}
          onChange={(event: ChangeEvent<HTMLInputElement>) =>
            void checkFile(event.target.files?.[0])
          }
          className="max-w-full text-sm"
        />
      </label>
      <p role="status" aria-live="polite" className="min-h-6 text-sm">
        {check.state === "checking" ? "Checking…" : null}
        {check.state === "match" ? (
          <span className="font-medium text-success">
            {check.name} is certificate {number} exactly as issued.
          </span>
        ) : null}
        {check.state === "mismatch" ? (
          <span className="font-medium text-destructive">
            {check.name} is not the file issued as certificate {number}: it has been changed, or it
            is another file.
          </span>
        ) : null}
        {check.state === "error" ? (
          <span className="text-destructive">That file could not be read.</span>
        ) : null}
      </p>
    </div>
  );
}
