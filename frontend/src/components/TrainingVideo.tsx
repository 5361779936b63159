import { BlockStack, Text } from '@shopify/polaris';

/**
 * The training video's embed address (youtube-nocookie, allowed by the
 * gateway's CSP). Empty until the video is published: then every screen shows
 * the offline frame below instead, so a machine without internet (demo mode)
 * never shows a broken player. Even when set, the player loads only inside
 * the Shopify admin.
 */
export const TRAINING_VIDEO_EMBED_URL = '';

export function TrainingVideo({ inAdmin = false }: { inAdmin?: boolean }) {
  if (TRAINING_VIDEO_EMBED_URL && inAdmin) {
    return (
      <div style={frame}>
        <iframe
          src={TRAINING_VIDEO_EMBED_URL}
          title="Ratesmith training video"
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 }}
          allow="encrypted-media; picture-in-picture"
          allowFullScreen
        />
      </div>
    );
  }
  return (
    <figure style={{ ...frame, margin: 0 }} aria-label="Training video">
      <div style={poster}>
        <BlockStack gap="200" inlineAlign="center">
          <svg width="56" height="56" viewBox="0 0 56 56" aria-hidden="true" opacity={0.7}>
            <circle cx="28" cy="28" r="27" fill="rgba(255,255,255,0.15)" stroke="#fff" />
            <path d="M23 18v20l16-10z" fill="#fff" />
          </svg>
          <Text as="p" variant="headingMd" tone="text-inverse">
            Training video
          </Text>
          <Text as="p" variant="bodySm" tone="text-inverse">
            How to set up your first ruleset, step by step.{' '}
            {TRAINING_VIDEO_EMBED_URL
              ? 'It plays inside the Shopify admin.'
              : 'Coming soon; until then the FAQ explains how rules are applied.'}
          </Text>
        </BlockStack>
      </div>
    </figure>
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

const poster = {
  position: 'absolute',
  inset: 0,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  padding: 'var(--p-space-400)',
  textAlign: 'center',
} as const;
