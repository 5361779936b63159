import { useState, type ReactNode } from 'react';
import { BlockStack, Text } from '@shopify/polaris';

/**
 * The walkthrough recorded from the browser tests (frontend/test/
 * training-video.int.spec.ts, `npm run video:record`): a WebM and its WebVTT
 * captions in frontend/public/training, served by the gateway with the rest
 * of the built frontend. It works offline (demo mode) and is re-recorded
 * whenever the screens it shows change.
 */
export const DEFAULT_TRAINING_VIDEO = '/training/ratesmith-walkthrough.webm';
export const DEFAULT_TRAINING_CAPTIONS = '/training/ratesmith-walkthrough.vtt';

/**
 * The video to play: the gateway's TRAINING_VIDEO_URL (the
 * `ratesmith-training-video` meta tag it puts into index.html, its origin
 * allowed in the CSP's media-src), else the recorded walkthrough with its
 * captions.
 */
export function trainingVideoSource(doc: Document = document): {
  video: string;
  captions?: string;
} {
  const configured = doc
    .querySelector<HTMLMetaElement>('meta[name="ratesmith-training-video"]')
    ?.content.trim();
  return configured
    ? { video: configured }
    : { video: DEFAULT_TRAINING_VIDEO, captions: DEFAULT_TRAINING_CAPTIONS };
}

type State = 'loading' | 'ready' | 'failed';

/** The training video of the install page and the Dashboard, inside the admin or not. */
export function TrainingVideo() {
  const [source] = useState(() => trainingVideoSource());
  const [state, setState] = useState<State>('loading');

  if (state === 'failed') {
    return (
      <div style={frame} role="group" aria-label="Training video (unavailable)">
        <div style={cover}>
          <BlockStack gap="200" inlineAlign="center">
            <Text as="p" variant="headingMd" tone="text-inverse">
              The training video could not be loaded
            </Text>
            <Text as="p" variant="bodySm" tone="text-inverse">
              Reload the page to try again; meanwhile the FAQ explains how rules are applied.
            </Text>
          </BlockStack>
        </div>
      </div>
    );
  }
  return (
    <div style={frame}>
      <video
        style={player}
        src={source.video}
        controls
        preload="metadata"
        playsInline
        aria-label="Training video: add a ruleset, a rule with a nested group, enable it and preview a cart"
        onLoadedMetadata={() => setState('ready')}
        onError={() => setState('failed')}
      >
        {/* The walkthrough's captions are also burned into its picture, so they are
            not shown twice by default: the player's captions button turns them on. */}
        {source.captions ? (
          <track kind="captions" src={source.captions} srcLang="en" label="English" />
        ) : null}
      </video>
      {state === 'loading' ? (
        // Until the first frame is known: a still frame that lets clicks through to the player.
        <div style={{ ...cover, pointerEvents: 'none' }} aria-hidden="true">
          <BlockStack gap="200" inlineAlign="center">
            <svg width="56" height="56" viewBox="0 0 56 56" opacity={0.7}>
              <circle cx="28" cy="28" r="27" fill="rgba(255,255,255,0.15)" stroke="#fff" />
              <path d="M23 18v20l16-10z" fill="#fff" />
            </svg>
            <Text as="p" variant="headingMd" tone="text-inverse">
              Training video
            </Text>
            <Text as="p" variant="bodySm" tone="text-inverse">
              How to set up your first ruleset, step by step.
            </Text>
          </BlockStack>
        </div>
      ) : null}
    </div>
  );
}

const frame = {
  position: 'relative',
  width: '100%',
  maxWidth: 640,
  aspectRatio: '16 / 9',
  borderRadius: 'var(--p-border-radius-300)',
  overflow: 'hidden',
  background: 'var(--p-color-bg-inverse)',
} as const;

const player = {
  position: 'absolute',
  inset: 0,
  width: '100%',
  height: '100%',
  background: 'var(--p-color-bg-inverse)',
} as const;

const cover = {
  position: 'absolute',
  inset: 0,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  padding: 'var(--p-space-400)',
  textAlign: 'center',
  background: 'var(--p-color-bg-inverse)',
} as const;

/** How Install and the Dashboard welcome the merchant: the heading, the page's introduction, the video. */
export function WelcomeIntro({ children }: { children: ReactNode }) {
  return (
    <>
      <Text as="h2" variant="headingLg">
        Welcome to Ratesmith
      </Text>
      <Text as="p">{children}</Text>
      <TrainingVideo />
    </>
  );
}
