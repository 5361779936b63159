import type { Browser } from 'playwright-core';

/**
 * Turns the screenshots of a browser test into a captioned video without
 * ffmpeg: Chromium draws each frame on a <canvas> (the caption burned in as a
 * bar above it), and MediaRecorder encodes the canvas stream to WebM in
 * real time. The WebM gets its Duration written afterwards (MediaRecorder
 * streams without one, and a <video> would report an infinite duration), and
 * the captions also go to a WebVTT file, one cue per frame.
 */

export interface Frame {
  /** A PNG of the page, `width` × (`height` − `CAPTION_BAR`) pixels. */
  png: Buffer;
  caption: string;
}

export interface Cue {
  startMs: number;
  endMs: number;
  text: string;
}

export const VIDEO_WIDTH = 1280;
export const VIDEO_HEIGHT = 720;
/**
 * Height of the caption bar above each screenshot: on top, because a paused
 * <video> keeps its controls over the bottom of the picture.
 */
export const CAPTION_BAR = 120;

export interface RecordOptions {
  /** How long each frame stays on screen. */
  holdMs?: number;
  /** Cross-fade from the previous frame at the start of each. */
  fadeMs?: number;
  fps?: number;
  videoBitsPerSecond?: number;
}

export async function recordWebm(
  browser: Browser,
  frames: Frame[],
  options: RecordOptions = {},
): Promise<{ webm: Buffer; cues: Cue[]; durationMs: number }> {
  const settings = {
    holdMs: 4_200,
    fadeMs: 400,
    fps: 25,
    videoBitsPerSecond: 600_000,
    ...options,
    width: VIDEO_WIDTH,
    height: VIDEO_HEIGHT,
    bar: CAPTION_BAR,
  };
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  try {
    const page = await context.newPage();
    await page.goto('about:blank');
    const result = await page.evaluate(
      async ({ settings, frames }) => {
        const { width, height, bar, holdMs, fadeMs, fps } = settings;
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        document.body.append(canvas);
        const ctx = canvas.getContext('2d')!;
        const images = await Promise.all(
          frames.map(async (f) =>
            createImageBitmap(await (await fetch(`data:image/png;base64,${f.png}`)).blob()),
          ),
        );

        const wrap = (text: string, maxWidth: number): string[] => {
          const lines: string[] = [];
          let line = '';
          for (const word of text.split(/\s+/)) {
            const next = line ? `${line} ${word}` : word;
            if (line && ctx.measureText(next).width > maxWidth) {
              lines.push(line);
              line = word;
            } else line = next;
          }
          if (line) lines.push(line);
          return lines;
        };
        const draw = (index: number, fade: number) => {
          ctx.globalAlpha = 1;
          ctx.fillStyle = '#f1f1f1';
          ctx.fillRect(0, bar, width, height - bar);
          if (index > 0 && fade < 1) ctx.drawImage(images[index - 1]!, 0, bar);
          ctx.globalAlpha = index > 0 ? fade : 1;
          ctx.drawImage(images[index]!, 0, bar);
          ctx.globalAlpha = 1;
          // The caption bar: white on near-black, step number on the left.
          ctx.fillStyle = '#1a1a1a';
          ctx.fillRect(0, 0, width, bar);
          ctx.fillStyle = '#b5b5b5';
          ctx.font = 'bold 26px "Liberation Sans", "DejaVu Sans", Arial, sans-serif';
          ctx.textBaseline = 'middle';
          ctx.textAlign = 'left';
          ctx.fillText(`${index + 1}/${frames.length}`, 24, bar / 2);
          ctx.fillStyle = '#ffffff';
          ctx.font = 'bold 34px "Liberation Sans", "DejaVu Sans", Arial, sans-serif';
          ctx.textAlign = 'center';
          const lines = wrap(frames[index]!.caption, width - 220).slice(0, 2);
          const lineHeight = 42;
          lines.forEach((text, i) =>
            ctx.fillText(text, width / 2, bar / 2 + (i - (lines.length - 1) / 2) * lineHeight),
          );
        };

        draw(0, 1);
        const stream = canvas.captureStream(fps);
        const mimeType = MediaRecorder.isTypeSupported('video/webm;codecs=vp9')
          ? 'video/webm;codecs=vp9'
          : 'video/webm;codecs=vp8';
        const recorder = new MediaRecorder(stream, {
          mimeType,
          videoBitsPerSecond: settings.videoBitsPerSecond,
          // A key frame about once a step, so a seek decodes little (Chromium's option).
          videoKeyFrameIntervalDuration: settings.holdMs,
        } as MediaRecorderOptions);
        const chunks: Blob[] = [];
        recorder.ondataavailable = (e) => {
          if (e.data.size > 0) chunks.push(e.data);
        };
        const stopped = new Promise((resolve) => (recorder.onstop = resolve));
        const tick = () => new Promise((resolve) => setTimeout(resolve, 1000 / fps));

        recorder.start(1_000);
        const t0 = performance.now();
        const cues: { startMs: number; endMs: number; text: string }[] = [];
        for (let index = 0; index < frames.length; index++) {
          const start = performance.now();
          while (performance.now() - start < holdMs) {
            draw(index, Math.min(1, (performance.now() - start) / fadeMs));
            await tick();
          }
          cues.push({
            startMs: Math.round(start - t0),
            endMs: Math.round(performance.now() - t0),
            text: frames[index]!.caption,
          });
        }
        recorder.stop();
        await stopped;
        const durationMs = performance.now() - t0;
        const blob = new Blob(chunks, { type: 'video/webm' });
        const base64 = await new Promise<string>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
          reader.onerror = () => reject(reader.error);
          reader.readAsDataURL(blob);
        });
        return { base64, cues, durationMs, mimeType };
      },
      {
        settings,
        frames: frames.map((f) => ({ png: f.png.toString('base64'), caption: f.caption })),
      },
    );
    // The cues run back to back from 0 to the end.
    const cues = result.cues.map((cue, i, all) => ({
      ...cue,
      startMs: i === 0 ? 0 : all[i - 1]!.endMs,
    }));
    const durationMs = Math.round(result.durationMs);
    return {
      webm: withWebmDuration(Buffer.from(result.base64, 'base64'), durationMs),
      cues,
      durationMs,
    };
  } finally {
    await context.close();
  }
}

/** WebVTT with one cue per entry. */
export function webVtt(cues: Cue[]): string {
  const time = (ms: number) => {
    const h = Math.floor(ms / 3_600_000);
    const m = Math.floor(ms / 60_000) % 60;
    const s = Math.floor(ms / 1000) % 60;
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
  };
  return `WEBVTT\n\n${cues
    .map((c, i) => `${i + 1}\n${time(c.startMs)} --> ${time(c.endMs)}\n${c.text}\n`)
    .join('\n')}`;
}

/** The texts of a WebVTT file's cues, in order. */
export function vttCueTexts(vtt: string): string[] {
  return vtt
    .split(/\r?\n\r?\n/)
    .map((block) => block.trim().split(/\r?\n/))
    .filter((lines) => lines.some((l) => l.includes('-->')))
    .map((lines) =>
      lines
        .slice(lines.findIndex((l) => l.includes('-->')) + 1)
        .join('\n')
        .trim(),
    );
}

const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const DURATION = 0x4489;

/**
 * Sets the Duration (in the default timecode scale, milliseconds) of a WebM
 * from MediaRecorder: its Segment has an unknown size and no SeekHead or
 * Cues, so the Info element may grow without moving anything that is
 * pointed at.
 */
export function withWebmDuration(webm: Buffer, durationMs: number): Buffer {
  const header = readElement(webm, 0);
  const segment = readElement(webm, header.end);
  if (segment.id !== SEGMENT) throw new Error('not a WebM: no Segment after the EBML header');
  let pos = segment.dataStart;
  while (pos < webm.length) {
    const child = readElement(webm, pos);
    if (child.id === INFO) {
      const end = Math.min(child.end, webm.length);
      for (let p = child.dataStart; p < end;) {
        const field = readElement(webm, p);
        if (field.id === DURATION) {
          if (field.size === 8) webm.writeDoubleBE(durationMs, field.dataStart);
          else webm.writeFloatBE(durationMs, field.dataStart);
          return webm;
        }
        p = field.end;
      }
      const duration = Buffer.alloc(11);
      duration.writeUInt16BE(DURATION, 0);
      duration[2] = 0x88; // size 8
      duration.writeDoubleBE(durationMs, 3);
      const children = Buffer.concat([webm.subarray(child.dataStart, end), duration]);
      const info = Buffer.concat([
        webm.subarray(pos, pos + child.idLength),
        vint8(children.length),
        children,
      ]);
      return Buffer.concat([webm.subarray(0, pos), info, webm.subarray(end)]);
    }
    if (child.unknownSize) break;
    pos = child.end;
  }
  throw new Error('not a WebM: no Info element in the Segment');
}

function readElement(buf: Buffer, pos: number) {
  const idLength = vintLength(buf[pos]!);
  const id = buf.readUIntBE(pos, idLength);
  const sizeLength = vintLength(buf[pos + idLength]!);
  let size = buf[pos + idLength]! & (0xff >> sizeLength);
  for (let i = 1; i < sizeLength; i++) size = size * 256 + buf[pos + idLength + i]!;
  const unknownSize = size === 2 ** (7 * sizeLength) - 1;
  const dataStart = pos + idLength + sizeLength;
  return { id, idLength, size, unknownSize, dataStart, end: dataStart + size };
}

function vintLength(first: number): number {
  for (let length = 1; length <= 8; length++) if (first & (0x100 >> length)) return length;
  throw new Error('bad EBML variable-length integer');
}

function vint8(value: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUIntBE(value, 2, 6);
  out[0] = 0x01;
  return out;
}
