import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import express from "express";
import { describe, expect, it } from "vitest";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, NOT_AN_IMAGE } from "#app/lib/admin/image-upload.ts";
import { courseFormSchema } from "#app/lib/catalogue/course-form.ts";
import { partnerFormSchema } from "#app/lib/catalogue/partner-form.ts";
import { createCourse, deleteCourse, updateCourse } from "#server/catalogue/course-admin.server.ts";
import { createPartner, deletePartner, updatePartner } from "#server/catalogue/partners.server.ts";
import { localMediaStorage, serveLocalMedia } from "#server/storage/local.server.ts";
import { s3MediaStorage } from "#server/storage/s3.server.ts";
import { InvalidMediaPathError } from "#server/storage/media.server.ts";
import { readPostedForm } from "#server/forms/form-post.server.ts";
import { detectImageType, storeImage, UploadError } from "#server/uploads.server.ts";
import { ADMIN } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { useTemporaryMediaStorage } from "#tests/support/media-storage.ts";

useFreshDatabase();

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const SVG = `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`;

const file = (bytes: Uint8Array | string, name: string, type = "") =>
  new File([bytes as BlobPart], name, { type });

const mediaDir = useTemporaryMediaStorage("nw-uploads-");

const stored = (folder: string) =>
  existsSync(path.join(mediaDir(), folder)) ? readdirSync(path.join(mediaDir(), folder)) : [];
const fileOf = (url: string) => path.join(mediaDir(), url.replace(/^\/media\//, ""));

describe("image checks", () => {
  it("a PNG is accepted, stored under thumbnails/ with prefix, timestamp and its extension", async () => {
    const before = Date.now();
    const url = await storeImage("thumbnails", file(PNG, "My Photo.PNG", "image/png"));
    const match = /^\/media\/thumbnails\/course-(\d+)-[0-9a-f]{12}\.png$/.exec(url);
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThanOrEqual(before);
    expect(readFileSync(fileOf(url))).toEqual(PNG);
  });

  it("recognises png, gif, jpeg, bmp, ico and webp by their bytes", () => {
    const bmp = new Uint8Array(30);
    bmp.set([0x42, 0x4d]);
    bmp[14] = 40;
    const ico = new Uint8Array(22);
    ico.set([0, 0, 1, 0, 1, 0]);
    const cases: [Uint8Array, string | undefined][] = [
      [PNG, "image/png"],
      [new TextEncoder().encode("GIF89a......"), "image/gif"],
      [new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]), "image/jpeg"],
      [bmp, "image/bmp"],
      [ico, "image/x-icon"],
      [new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "), "image/webp"],
      [new TextEncoder().encode("BM is not enough for a bitmap......"), undefined],
      [new TextEncoder().encode(SVG), undefined],
      [new TextEncoder().encode("<html><script>alert(1)</script></html>"), undefined],
    ];
    for (const [bytes, type] of cases) expect(detectImageType(bytes)?.contentType).toBe(type);
  });

  it("a text file renamed .png is refused and never reaches storage", async () => {
    const error = await storeImage(
      "thumbnails",
      file("hello, I am text", "photo.png", "image/png"),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect(error.message).toBe(NOT_AN_IMAGE);
    expect(stored("thumbnails")).toEqual([]);
  });

  it("an SVG with script is refused (by the form schema and by the server's byte check)", async () => {
    const svg = file(SVG, "logo.svg", "image/svg+xml");
    const parsed = partnerFormSchema.safeParse({ name: "P", logo: svg });
    expect(parsed.error?.issues[0]).toMatchObject({ path: ["logo"], message: NOT_AN_IMAGE });
    // Even when it claims to be a PNG.
    const error = await storeImage("logos", file(SVG, "logo.png", "image/png")).catch((e) => e);
    expect(error).toMatchObject({ message: NOT_AN_IMAGE });
    expect(stored("logos")).toEqual([]);
  });

  it("an oversized image is refused with a clear message (schema and server)", async () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG);
    const huge = file(big, "big.png", "image/png");
    expect(
      courseFormSchema.safeParse({ title: "T", thumbnail: huge }).error?.issues[0]?.message,
    ).toBe(IMAGE_TOO_LARGE);
    const error = await storeImage("thumbnails", huge).catch((e) => e);
    expect(error).toMatchObject({ message: IMAGE_TOO_LARGE, status: 413 });
    expect(stored("thumbnails")).toEqual([]);
  });

  it("a PNG named .html is stored as .png (served as an image, never as a page)", async () => {
    const url = await storeImage("logos", file(PNG, "x.html", "text/html"));
    expect(url).toMatch(/^\/media\/logos\/partner-\d+-[0-9a-f]{12}\.png$/);
  });

  it("the editor's pictures: png, gif, jpeg, bmp, ico; not webp", async () => {
    const webp = new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 ");
    await expect(storeImage("content", file(webp, "a.webp"))).rejects.toThrow(NOT_AN_IMAGE);
    expect(await storeImage("content", file(PNG, "a.png"))).toMatch(/^\/media\/content\/content-/);
  });
});

describe("bounded form bodies", () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request("http://site.test/admin/courses", {
      method: "POST",
      body,
      headers,
      duplex: "half",
    } as RequestInit);

  it("reads a multipart form with its file", async () => {
    const form = new FormData();
    form.set("title", "Course");
    form.set("thumbnail", file(PNG, "t.png", "image/png"));
    const posted = await readPostedForm(post(form), { maxBytes: 1024 * 1024 });
    if (!posted.ok) throw new Error(posted.message);
    const data = posted.formData;
    expect(data.get("title")).toBe("Course");
    expect(new Uint8Array(await (data.get("thumbnail") as File).arrayBuffer())).toEqual(
      new Uint8Array(PNG),
    );
  });

  it("reads a multipart body whose boundary has capitals, as Chromium sends it", async () => {
    const boundary = "----WebKitFormBoundaryAbCdEf0123456789";
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="title"',
      "",
      "Course",
      `--${boundary}--`,
      "",
    ].join("\r\n");
    const posted = await readPostedForm(
      post(body, { "content-type": `multipart/form-data; boundary=${boundary}` }),
    );
    expect(posted.ok && posted.formData.get("title")).toBe("Course");
  });

  it("refuses a declared Content-Length over the cap without reading the body", async () => {
    const request = post("x", {
      "content-type": "multipart/form-data; boundary=x",
      "content-length": String(10 * 1024 * 1024),
    });
    expect(
      await readPostedForm(request, { maxBytes: 1024, tooLarge: IMAGE_TOO_LARGE }),
    ).toMatchObject({ ok: false, status: 413, message: IMAGE_TOO_LARGE });
    expect(request.bodyUsed).toBe(false);
  });

  it("stops reading a streamed body as soon as it passes the cap", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
        if (pulled > 1000) controller.close();
      },
    });
    expect(
      await readPostedForm(post(stream, { "content-type": "multipart/form-data; boundary=x" }), {
        maxBytes: 4096,
      }),
    ).toMatchObject({ ok: false, status: 413 });
    expect(pulled).toBeLessThan(20);
  });
});

describe("replacing and removing images", () => {
  it("a partner's new logo replaces the old file; removal clears logo_url and deletes it", async () => {
    const created = await createPartner(
      partnerFormSchema.parse({ name: "P", logo: file(PNG, "a.png") }),
      ADMIN,
    );
    const first = created.logoUrl!;
    expect(existsSync(fileOf(first))).toBe(true);
    const replaced = await updatePartner(
      created.id,
      partnerFormSchema.parse({ name: "P", logo: file(PNG, "b.png") }),
      ADMIN,
    );
    expect(replaced!.logoUrl).not.toBe(first);
    expect(existsSync(fileOf(first))).toBe(false);
    expect(existsSync(fileOf(replaced!.logoUrl!))).toBe(true);
    // Saving without a new file keeps the logo.
    const kept = await updatePartner(created.id, partnerFormSchema.parse({ name: "P2" }), ADMIN);
    expect(kept!.logoUrl).toBe(replaced!.logoUrl);
    const removed = await updatePartner(
      created.id,
      partnerFormSchema.parse({ name: "P", remove_logo: "on" }),
      ADMIN,
    );
    expect(removed!.logoUrl).toBeNull();
    expect(stored("logos")).toEqual([]);
  });

  it("a course's thumbnail: replaced, removed, and deleted with the course", async () => {
    const c = await createCourse(
      courseFormSchema.parse({ title: "C", thumbnail: file(PNG, "a.png") }),
      ADMIN,
    );
    const first = c.thumbnailUrl!;
    const replaced = await updateCourse(
      c.id,
      courseFormSchema.parse({ title: "C", thumbnail: file(PNG, "b.jpg.png") }),
      ADMIN,
    );
    expect(existsSync(fileOf(first))).toBe(false);
    expect(stored("thumbnails")).toHaveLength(1);
    await deleteCourse(replaced!.id, ADMIN);
    expect(stored("thumbnails")).toEqual([]);
    const again = await createCourse(
      courseFormSchema.parse({ title: "D", thumbnail: file(PNG, "a.png") }),
      ADMIN,
    );
    const cleared = await updateCourse(
      again.id,
      courseFormSchema.parse({ title: "D", remove_thumbnail: "on" }),
      ADMIN,
    );
    expect(cleared!.thumbnailUrl).toBeNull();
    expect(stored("thumbnails")).toEqual([]);
  });

  it("a refused image saves nothing; a failed save removes the image it had stored", async () => {
    await expect(
      createPartner(
        partnerFormSchema.parse({ name: "P", logo: file("text", "a.png", "image/png") }),
        ADMIN,
      ),
    ).rejects.toThrow(NOT_AN_IMAGE);
    const typedSlugClash = courseFormSchema.parse({ title: "E", slug: "taken" });
    await createCourse(typedSlugClash, ADMIN);
    await expect(
      createCourse(
        courseFormSchema.parse({ title: "F", slug: "taken", thumbnail: file(PNG, "a.png") }),
        ADMIN,
      ),
    ).rejects.toThrow();
    expect(stored("thumbnails")).toEqual([]);
    await deletePartner("00000000-0000-4000-8000-000000000000", ADMIN);
  });
});

describe("local storage paths", () => {
  it("refuses traversal in names and in URLs to delete; nothing outside is touched", async () => {
    const secret = path.join(mediaDir(), "..", `${path.basename(mediaDir())}-secret.txt`);
    writeFileSync(secret, "keep");
    const storage = localMediaStorage(mediaDir());
    for (const name of ["../x.png", "..", "a/b.png", ".hidden.png", "x.png/..", "x\0.png"]) {
      await expect(storage.put("thumbnails", name, PNG, "image/png")).rejects.toBeInstanceOf(
        InvalidMediaPathError,
      );
    }
    for (const url of [
      `/media/../${path.basename(secret)}`,
      `/media/thumbnails/../../${path.basename(secret)}`,
      "/media/thumbnails/%2e%2e%2fsecret.txt",
      "/media/db/PG_VERSION",
      "/media/thumbnails",
    ]) {
      await expect(storage.delete(url)).rejects.toBeInstanceOf(InvalidMediaPathError);
    }
    // URLs that are not ours are left alone.
    await storage.delete("https://cdn.example/thumbnails/x.png");
    expect(readFileSync(secret, "utf8")).toBe("keep");
    rmSync(secret);
  });

  it("serves stored files with long caching and refuses everything else", async () => {
    const url = await storeImage("thumbnails", file(PNG, "a.png"));
    mkdirSync(path.join(mediaDir(), "db"), { recursive: true });
    writeFileSync(path.join(mediaDir(), "db", "secret.png"), "secret");
    const app = express();
    app.use("/media", serveLocalMedia(mediaDir()));
    const server = await new Promise<Server>((resolve) => {
      const s = createServer(app).listen(0, "127.0.0.1", () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ok = await fetch(base + url);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toBe("image/png");
      expect(ok.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(ok.headers.get("x-content-type-options")).toBe("nosniff");
      for (const bad of [
        "/media/db/secret.png",
        "/media/thumbnails/..%2f..%2fetc%2fpasswd",
        "/media/thumbnails/%2e%2e/db/secret.png",
        "/media/thumbnails/.hidden.png",
        "/media/thumbnails/",
        "/media/thumbnails/missing-1.png",
      ]) {
        expect((await fetch(base + bad)).status, bad).toBe(404);
      }
      expect((await fetch(base + url, { method: "POST" })).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe("S3-compatible storage", () => {
  it("puts objects under folder/name with type and caching, and deletes only its own URLs", async () => {
    const requests: { method: string; url: string; type?: string; cache?: string; body: number }[] =
      [];
    const server = createServer((req, res) => {
      let size = 0;
      req.on("data", (chunk: Buffer) => (size += chunk.length));
      req.on("end", () => {
        requests.push({
          method: req.method!,
          url: req.url!,
          type: req.headers["content-type"],
          cache: req.headers["cache-control"] as string | undefined,
          body: size,
        });
        res.statusCode = req.method === "DELETE" ? 204 : 200;
        if (req.method === "PUT") res.setHeader("ETag", '"abc"');
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const storage = s3MediaStorage({
        kind: "s3",
        bucket: "nw-media",
        endpoint,
        region: "auto",
        credentials: { accessKeyId: "test", secretAccessKey: "test" },
        publicUrl: "https://media.example.co.uk",
      });
      const url = await storage.put("logos", "partner-1-abc.png", PNG, "image/png");
      expect(url).toBe("https://media.example.co.uk/logos/partner-1-abc.png");
      await storage.delete(url);
      await storage.delete("https://elsewhere.example/logos/partner-1-abc.png");
      await expect(
        storage.delete("https://media.example.co.uk/logos/../secret"),
      ).rejects.toBeInstanceOf(InvalidMediaPathError);
      expect(requests.map((r) => `${r.method} ${r.url.split("?")[0]}`)).toEqual([
        "PUT /nw-media/logos/partner-1-abc.png",
        "DELETE /nw-media/logos/partner-1-abc.png",
      ]);
      expect(requests[0]).toMatchObject({
        type: "image/png",
        cache: "public, max-age=31536000, immutable",
        body: PNG.length,
      });
    } finally {
      server.close();
    }
  });
});
