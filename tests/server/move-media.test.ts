import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { coursePartners, courses, trainers } from "#server/db/schema.ts";
import type { MediaFolder, MediaStorage } from "#server/storage/media.server.ts";
import { moveLocalMedia } from "#server/storage/move-media.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourse } from "#tests/support/factories.ts";

/**
 * `npm run media:to-s3` (server/storage/move-media.server.ts): every uploaded file goes to the
 * bucket, and thumbnails, logos, trainer photos and pictures in content point there afterwards. The bucket is
 * stood in for by a store that keeps what it is given (S3 itself is the network's edge).
 */
const database = useFreshDatabase();
let localDir: string | undefined;
afterEach(() => {
  if (localDir) rmSync(localDir, { recursive: true, force: true });
});

function bucket() {
  const objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  const store: MediaStorage = {
    async put(folder: MediaFolder, name: string, bytes: Uint8Array, contentType: string) {
      objects.set(`${folder}/${name}`, { bytes, contentType });
      return `https://media.example.com/${folder}/${name}`;
    },
    async delete() {},
  };
  return { store, objects };
}

describe("moving local media to a bucket", () => {
  it("puts every file there and points thumbnails, logos, photos and content at it", async () => {
    localDir = mkdtempSync(path.join(tmpdir(), "nw-media-move-"));
    for (const [folder, name] of [
      ["thumbnails", "course-1.png"],
      ["logos", "partner-1.svg"],
      ["photos", "trainer-1.jpg"],
      ["content", "figure-1.webp"],
      ["content", "figure-10.webp"],
    ] as const) {
      mkdirSync(path.join(localDir, folder), { recursive: true });
      writeFileSync(path.join(localDir, folder, name), `bytes of ${name}`);
    }
    const { db } = database();
    const [partner] = await db
      .insert(coursePartners)
      .values({ name: "Cifas", logoUrl: "/media/logos/partner-1.svg" })
      .returning();
    await db.insert(trainers).values({ name: "Ada", photoUrl: "/media/photos/trainer-1.jpg" });
    const course = await insertCourse({
      slug: "with-media",
      thumbnailUrl: "/media/thumbnails/course-1.png",
      content:
        '<p><img src="/media/content/figure-1.webp" alt="One"><img src="/media/content/figure-10.webp" alt="Ten"></p>',
    });

    const { store, objects } = bucket();
    const moved = await moveLocalMedia(localDir, store);
    expect(moved).toEqual({ files: 5, thumbnails: 1, logos: 1, photos: 1, contents: 2 });
    expect([...objects.keys()].sort()).toEqual([
      "content/figure-1.webp",
      "content/figure-10.webp",
      "logos/partner-1.svg",
      "photos/trainer-1.jpg",
      "thumbnails/course-1.png",
    ]);
    expect(objects.get("logos/partner-1.svg")!.contentType).toBe("image/svg+xml");
    expect(Buffer.from(objects.get("thumbnails/course-1.png")!.bytes).toString()).toBe(
      "bytes of course-1.png",
    );

    const [after] = await db.select().from(courses);
    expect(after!.id).toBe(course.id);
    expect(after!.thumbnailUrl).toBe("https://media.example.com/thumbnails/course-1.png");
    expect(after!.content).toBe(
      '<p><img src="https://media.example.com/content/figure-1.webp" alt="One"><img src="https://media.example.com/content/figure-10.webp" alt="Ten"></p>',
    );
    const [logo] = await db.select().from(coursePartners);
    expect(logo!.id).toBe(partner!.id);
    expect(logo!.logoUrl).toBe("https://media.example.com/logos/partner-1.svg");
    const [trainer] = await db.select().from(trainers);
    expect(trainer!.photoUrl).toBe("https://media.example.com/photos/trainer-1.jpg");
    // Run again: nothing points at the local files any more.
    expect(await moveLocalMedia(localDir, store)).toEqual({
      files: 5,
      thumbnails: 0,
      logos: 0,
      photos: 0,
      contents: 0,
    });
  });
});
