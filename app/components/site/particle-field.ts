/**
 * 80 slowly drifting dots joined by faint lines when close: a canvas loaded lazily by
 * `DeferredParticles` (particles.tsx). Plain DOM code: the box it draws in is React's, the
 * canvas is not. Drawing pauses while the canvas is off screen.
 */

const PARTICLE_COUNT = 80;
const LINK_DISTANCE = 120;
/** Pixels per second. */
const MAX_SPEED = 18;
const LINK_STEPS = 4;
const FRAME_MS = 1000 / 30;
/** The theme's primary cyan (#22d3ee). */
const RGB = "34, 211, 238";

interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
  r: number;
}

const running = new WeakMap<Element, () => void>();

/**
 * Starts the field in `box` (an empty, positioned element) and returns the function that stops
 * it and removes the canvas. A box that already runs one keeps it: the inline script may have
 * started it before React hydrated, and React's effect then takes over the same field.
 */
export function mountParticleField(box: HTMLElement): () => void {
  const existing = running.get(box);
  if (existing) return existing;

  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d");
  if (!context) return () => {};
  canvas.setAttribute("aria-hidden", "true");
  // Its own compositing layer, so a frame repaints the canvas and not the hero above it;
  // fainter on small screens, where the hero text covers most of the canvas.
  canvas.className =
    "pointer-events-none absolute inset-0 size-full opacity-50 will-change-transform motion-safe:animate-fade-in sm:opacity-90";
  box.append(canvas);

  let width = 0;
  let height = 0;
  let particles: Particle[] = [];
  let frame: number | undefined;
  let last = 0;
  let visible = true;

  const seed = () => {
    particles = Array.from({ length: PARTICLE_COUNT }, () => ({
      x: Math.random() * width,
      y: Math.random() * height,
      vx: (Math.random() - 0.5) * 2 * MAX_SPEED,
      vy: (Math.random() - 0.5) * 2 * MAX_SPEED,
      r: 1 + Math.random() * 1.5,
    }));
  };

  const resize = () => {
    // Soft dots and hairlines need no high-density pixels; one pixel per CSS pixel keeps each
    // frame's raster small on phones.
    const ratio = 1;
    const box = canvas.getBoundingClientRect();
    const first = width === 0;
    const sx = first ? 1 : box.width / width;
    const sy = first ? 1 : box.height / height;
    width = box.width;
    height = box.height;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    if (first || particles.length === 0) seed();
    else
      for (const p of particles) {
        p.x *= sx;
        p.y *= sy;
      }
  };

  const draw = (now: number) => {
    frame = visible ? requestAnimationFrame(draw) : undefined;
    // About 30 frames a second is smooth enough for slow drift and halves the work.
    if (last && now - last < FRAME_MS) return;
    const dt = last ? Math.min((now - last) / 1000, 0.1) : 0;
    last = now;
    for (const p of particles) {
      p.x += p.vx * dt;
      p.y += p.vy * dt;
      if (p.x < 0 || p.x > width) p.vx *= -1;
      if (p.y < 0 || p.y > height) p.vy *= -1;
      p.x = Math.max(0, Math.min(width, p.x));
      p.y = Math.max(0, Math.min(height, p.y));
    }
    // Lines are grouped into a few opacity steps so each step is stroked once: a stroke per
    // line costs far more than the geometry, above all on slow phones without a GPU.
    const lines = Array.from({ length: LINK_STEPS }, () => new Path2D());
    for (let i = 0; i < particles.length; i++) {
      const a = particles[i]!;
      for (let j = i + 1; j < particles.length; j++) {
        const b = particles[j]!;
        const dx = a.x - b.x;
        const dy = a.y - b.y;
        const squared = dx * dx + dy * dy;
        if (squared > LINK_DISTANCE * LINK_DISTANCE) continue;
        const closeness = 1 - Math.sqrt(squared) / LINK_DISTANCE;
        const path = lines[Math.min(LINK_STEPS - 1, Math.floor(closeness * LINK_STEPS))]!;
        path.moveTo(a.x, a.y);
        path.lineTo(b.x, b.y);
      }
    }
    context.clearRect(0, 0, width, height);
    context.lineWidth = 1;
    lines.forEach((path, step) => {
      context.strokeStyle = `rgba(${RGB}, ${((0.22 * (step + 0.5)) / LINK_STEPS).toFixed(3)})`;
      context.stroke(path);
    });
    const dots = new Path2D();
    for (const p of particles) {
      dots.moveTo(p.x + p.r, p.y);
      dots.arc(p.x, p.y, p.r, 0, Math.PI * 2);
    }
    context.fillStyle = `rgba(${RGB}, 0.55)`;
    context.fill(dots);
  };

  const play = () => {
    if (frame === undefined) {
      last = 0;
      frame = requestAnimationFrame(draw);
    }
  };

  resize();
  const resizeObserver = new ResizeObserver(resize);
  resizeObserver.observe(canvas);
  const visibility = new IntersectionObserver(([entry]) => {
    visible = Boolean(entry?.isIntersecting);
    if (visible) play();
  });
  visibility.observe(canvas);
  play();

  const stop = () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    resizeObserver.disconnect();
    visibility.disconnect();
    canvas.remove();
    running.delete(box);
  };
  running.set(box, stop);
  return stop;
}
