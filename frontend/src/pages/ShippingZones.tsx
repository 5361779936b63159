import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  ButtonGroup,
  Card,
  Divider,
  InlineStack,
  Page,
  Text,
} from '@shopify/polaris';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ShippingProfileJson, ShippingZoneJson } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { ListState } from '../components/ListState';
import { countryName } from '../data/countries';
import { useRegions } from '../data/regions';
import {
  allZones,
  sortProfiles,
  withZones,
  zoneCoverage,
  zoneCoverageLines,
  zonesWord,
  type PlaceNames,
} from '../zones/coverage';
import { useShippingZones } from '../zones/useShippingZones';

const FAILED = 'Failed to update shipping zones';

/** An update waiting for the merchant's confirmation (it takes Ratesmith out of its last zones). */
interface Pending {
  ids: string[];
  /** The button the update came from, focused again afterwards (else `fallback`, when it is disabled then). */
  focus: string;
  fallback?: string;
  busy: string;
  done: string;
}

type Target = Pick<Pending, 'focus' | 'fallback'>;

/** The target's button, else its fallback, when enabled (Polaris marks a disabled button aria-disabled). */
function usableButton(target: Target): HTMLElement | null {
  for (const id of [target.focus, target.fallback]) {
    const element = id ? document.getElementById(id) : null;
    if (element && element.getAttribute('aria-disabled') !== 'true') return element;
  }
  return null;
}

/**
 * /shipping-zones: the shop's delivery profiles (General first) and their
 * zones, each saying whether checkout asks Ratesmith for rates there, with
 * buttons to add or remove it per zone and per profile.
 */
export default function ShippingZones() {
  const { loaded, busy, update } = useShippingZones();
  const regions = useRegions();
  const names = useMemo<PlaceNames>(
    () => ({
      country: countryName,
      // Before the region table loads, the province's own code (`ON`).
      region: regions.table ? regions.table.regionName : (code) => code.slice(3),
      regionsOf: (country) => regions.table?.regionsOf(country).map((region) => region.code) ?? [],
    }),
    [regions.table],
  );
  const profiles = useMemo(() => sortProfiles(loaded.data?.profiles ?? []), [loaded.data]);
  const coverage = zoneCoverage(profiles);
  const idPrefix = useId();
  const [pending, setPending] = useState<Pending | undefined>(undefined);
  /** The button to focus once no update runs (a click blurs it; its spinner took it). */
  const [focusTarget, setFocusTarget] = useState<Target>();
  useEffect(() => {
    if (!focusTarget || busy) return;
    usableButton(focusTarget)?.focus();
    setFocusTarget(undefined);
  }, [focusTarget, busy]);
  /** Where focus returns once the confirmation has closed (the Modal's activator, read then). */
  const afterModal = useRef<Target>();
  const modalReturn = useMemo(
    () => ({
      get current() {
        // The Modal focuses the first focusable node inside its activator: the button's box.
        const target = afterModal.current;
        return (target && usableButton(target)?.parentElement) ?? null;
      },
    }),
    [],
  );

  const run = async (ids: string[], ratesmith: boolean, step: Omit<Pending, 'ids'>) =>
    update({ zone_ids: ids, ratesmith }, { busy: step.busy, done: step.done, failed: FAILED });

  const runAndFocus = async (ids: string[], ratesmith: boolean, step: Omit<Pending, 'ids'>) => {
    await run(ids, ratesmith, step);
    setFocusTarget(step);
  };

  /** Taking Ratesmith out of every zone that asks it needs a confirmation first. */
  const remove = (ids: string[], step: Omit<Pending, 'ids'>) => {
    if (zoneCoverage(withZones(profiles, ids, false)).asking === 0) {
      afterModal.current = step;
      setPending({ ids, ...step });
    } else void runAndFocus(ids, false, step);
  };

  const confirmRemove = async () => {
    if (!pending) return;
    await run(pending.ids, false, pending);
    setPending(undefined);
  };

  const cancelRemove = () => setPending(undefined);

  const buttonId = (what: string) => `${idPrefix}-${what}`;

  return (
    <Page
      title="Shipping zones"
      subtitle="Where checkout asks Ratesmith for shipping rates"
      secondaryActions={[
        {
          content: 'Reload zones',
          onAction: () => void loaded.reload(),
          loading: loaded.loading && loaded.data !== undefined,
          disabled: loaded.loading || busy !== undefined,
        },
      ]}
    >
      <BlockStack gap="400">
        <Card>
          <BlockStack gap="200">
            <Text as="p">
              Shopify asks Ratesmith for rates only when the address is in a shipping zone Ratesmith
              is in; your other rates in each zone stay as they are. You create zones and choose
              their countries in Settings › Shipping and delivery of your Shopify admin.
            </Text>
            {/* With one profile, its card says the same. */}
            {profiles.length > 1 && coverage.total > 0 && (
              <Text as="p" fontWeight="medium">
                Checkout asks Ratesmith in {coverage.asking} of {zonesWord(coverage.total)}.
              </Text>
            )}
          </BlockStack>
        </Card>
        <ListState
          label="Loading shipping zones"
          loaded={loaded}
          errorFallback="The shipping zones could not be loaded. Please try again."
          empty={!loaded.data || allZones(profiles).length === 0}
          emptyHeading="No shipping zones yet"
          emptyText="Create shipping zones in Settings › Shipping and delivery of your Shopify admin, then come back here to choose where checkout asks Ratesmith."
          emptyAction={{ content: 'Check again', onAction: () => void loaded.reload() }}
        >
          <BlockStack gap="400">
            {coverage.asking === 0 && (
              <Banner tone="warning" title="Checkout never asks Ratesmith">
                <p>
                  Ratesmith is in none of your shipping zones, so checkout shows only your other
                  shipping rates. Add it to the zones it should price.
                </p>
              </Banner>
            )}
            {profiles.map((profile) => (
              <ProfileCard
                key={profile.id}
                profile={profile}
                names={names}
                busy={busy}
                buttonId={buttonId}
                onAdd={(ids, step) => void runAndFocus(ids, true, step)}
                onRemove={remove}
              />
            ))}
          </BlockStack>
        </ListState>
      </BlockStack>
      <ConfirmModal
        open={pending !== undefined}
        activator={modalReturn}
        onClose={cancelRemove}
        title="Remove Ratesmith from its last zones?"
        action="Remove Ratesmith"
        destructive
        busy={pending !== undefined && busy === pending.busy}
        onConfirm={confirmRemove}
      >
        <Text as="p">
          Ratesmith would then be in no shipping zone: checkout will no longer get Ratesmith’s rates
          anywhere, only your other shipping rates. You can add it to a zone again at any time.
        </Text>
      </ConfirmModal>
    </Page>
  );
}

type Step = Omit<Pending, 'ids'>;

function ProfileCard({
  profile,
  names,
  busy,
  buttonId,
  onAdd,
  onRemove,
}: {
  profile: ShippingProfileJson;
  names: PlaceNames;
  busy: string | undefined;
  buttonId: (what: string) => string;
  onAdd: (ids: string[], step: Step) => void;
  onRemove: (ids: string[], step: Step) => void;
}) {
  const asking = profile.zones.filter((zone) => zone.ratesmith);
  const notAsking = profile.zones.filter((zone) => !zone.ratesmith);
  const addAll = buttonId(`add-${profile.id}`);
  const removeAll = buttonId(`remove-${profile.id}`);
  const headingId = buttonId(`heading-${profile.id}`);
  return (
    <Card>
      <section aria-labelledby={headingId}>
        <BlockStack gap="300">
          <BlockStack gap="100">
            <InlineStack gap="200" align="start" blockAlign="center">
              <Text as="h2" variant="headingMd" id={headingId}>
                {profile.name}
              </Text>
              {profile.default && <Badge>Default profile</Badge>}
            </InlineStack>
            <Text as="p" tone="subdued">
              {profile.default
                ? 'Products in no other profile ship with these zones.'
                : 'The products of this profile ship with these zones.'}{' '}
              {profile.zones.length > 0 &&
                `Checkout asks Ratesmith in ${asking.length} of ${zonesWord(profile.zones.length)}.`}
            </Text>
          </BlockStack>
          {profile.zones.length === 0 ? (
            <Text as="p">This profile has no shipping zones.</Text>
          ) : (
            <>
              <ButtonGroup>
                <Button
                  id={addAll}
                  disabled={notAsking.length === 0 || (busy !== undefined && busy !== addAll)}
                  loading={busy === addAll}
                  accessibilityLabel={`Add Ratesmith to every zone of ${profile.name}`}
                  onClick={() =>
                    onAdd(
                      notAsking.map((zone) => zone.id),
                      {
                        focus: addAll,
                        fallback: removeAll,
                        busy: addAll,
                        done: `Checkout now asks Ratesmith in every zone of ${profile.name}.`,
                      },
                    )
                  }
                >
                  Add Ratesmith to every zone
                </Button>
                <Button
                  id={removeAll}
                  disabled={asking.length === 0 || (busy !== undefined && busy !== removeAll)}
                  loading={busy === removeAll}
                  accessibilityLabel={`Remove from every zone of ${profile.name}`}
                  onClick={() =>
                    onRemove(
                      asking.map((zone) => zone.id),
                      {
                        focus: removeAll,
                        fallback: addAll,
                        busy: removeAll,
                        done: `Checkout no longer asks Ratesmith in the zones of ${profile.name}.`,
                      },
                    )
                  }
                >
                  Remove from every zone
                </Button>
              </ButtonGroup>
              <BlockStack as="ul" gap="0">
                {profile.zones.map((zone, index) => (
                  <ZoneRow
                    key={zone.id}
                    zone={zone}
                    first={index === 0}
                    names={names}
                    busy={busy}
                    buttonId={buttonId(`zone-${zone.id}`)}
                    onAdd={onAdd}
                    onRemove={onRemove}
                  />
                ))}
              </BlockStack>
            </>
          )}
        </BlockStack>
      </section>
    </Card>
  );
}

function ZoneRow({
  zone,
  first,
  names,
  busy,
  buttonId,
  onAdd,
  onRemove,
}: {
  zone: ShippingZoneJson;
  first: boolean;
  names: PlaceNames;
  busy: string | undefined;
  buttonId: string;
  onAdd: (ids: string[], step: Step) => void;
  onRemove: (ids: string[], step: Step) => void;
}) {
  const step: Step = {
    focus: buttonId,
    busy: buttonId,
    done: zone.ratesmith
      ? `Checkout no longer asks Ratesmith in ${zone.name}.`
      : `Checkout now asks Ratesmith in ${zone.name}.`,
  };
  return (
    <Box as="li">
      {!first && <Divider />}
      <Box paddingBlock="300">
        <InlineStack align="space-between" blockAlign="center" gap="300">
          <BlockStack gap="100">
            <InlineStack gap="200" align="start" blockAlign="center">
              <Text as="h3" variant="headingSm">
                {zone.name}
              </Text>
              {zone.ratesmith ? (
                <Badge tone="success">Checkout asks Ratesmith</Badge>
              ) : (
                <Badge>Ratesmith not asked</Badge>
              )}
            </InlineStack>
            <Text as="p" tone="subdued">
              {zoneCoverageLines(zone, names).join('; ')}
            </Text>
          </BlockStack>
          <Button
            id={buttonId}
            loading={busy === buttonId}
            disabled={busy !== undefined && busy !== buttonId}
            accessibilityLabel={
              zone.ratesmith
                ? `Remove Ratesmith from ${zone.name}`
                : `Add Ratesmith to ${zone.name}`
            }
            onClick={() => (zone.ratesmith ? onRemove : onAdd)([zone.id], step)}
          >
            {zone.ratesmith ? 'Remove Ratesmith' : 'Add Ratesmith'}
          </Button>
        </InlineStack>
      </Box>
    </Box>
  );
}
