import {
  Banner,
  BlockStack,
  Button,
  Card,
  ChoiceList,
  InlineStack,
  Link,
  Text,
} from '@shopify/polaris';
import { useMemo, useRef, useState } from 'react';
import type { RulesetFiltersReply, ShippingProfileJson } from '../api';
import { useNoticeSettled } from '../components/NoticesFirst';
import { useGet } from '../components/useLoader';
import { countryName } from '../data/countries';
import { useRegions, type Regions } from '../data/regions';
import { rulesetDestinations } from '../pages/rulesetDestinations';
import {
  destinationsReach,
  generalProfile,
  sortProfiles,
  zoneCoverage,
  zoneCoverageLines,
  zonesWord,
  type PlaceNames,
} from './coverage';
import { useShippingZones, type ShippingZones } from './useShippingZones';

const FAILED = 'Failed to update shipping zones';
const SHOPIFY_SETTINGS = 'Settings › Shipping and delivery of your Shopify admin';

/** `A`, `A and B`, `A, B and C`. */
function inWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Place names: regions by the region table once loaded (by their codes until then). */
/** The names a notice shows are final: the region table it needs answered (or failed). */
function regionsSettled(regions: Regions, needed: boolean): boolean {
  return !needed || regions.table !== undefined || regions.failed;
}

function usePlaceNames(regions: Regions): PlaceNames {
  return useMemo(
    () => ({
      country: countryName,
      region: regions.table ? regions.table.regionName : (code) => code.slice(3),
      regionsOf: (country) => regions.table?.regionsOf(country).map((region) => region.code) ?? [],
    }),
    [regions.table],
  );
}

/** A destination of a rule in words: `Germany`, `California, United States`. */
function destinationName(destination: string, names: PlaceNames, table: boolean): string {
  if (!destination.includes('-')) return names.country(destination);
  return table
    ? `${names.region(destination)}, ${names.country(destination.slice(0, 2))}`
    : destination;
}

/**
 * The Dashboard's notices about where checkout asks Ratesmith: the
 * first-install proposal (no zone chosen yet), a warning when no zone asks
 * Ratesmith, and one naming the places the enabled ruleset's rules are for that
 * no asking zone holds, each with a button that fixes it. Nothing while the
 * zones load or when they cannot be read (the Shipping zones page says why).
 * `enabledRulesetId`: the Dashboard's own read of /api/global-rules
 * (undefined until loaded, null when no ruleset is enabled).
 */
export function ZoneNotices({ enabledRulesetId }: { enabledRulesetId: string | null | undefined }) {
  const zones = useShippingZones();
  useNoticeSettled(!zones.loaded.loading);
  const region = useRef<HTMLDivElement>(null);
  const profiles = useMemo(
    () => sortProfiles(zones.loaded.data?.profiles ?? []),
    [zones.loaded.data],
  );
  /** After an answer the notice it came from goes: focus stays where it was, on what follows. */
  const run: ShippingZones['update'] = async (change, texts) => {
    const ok = await zones.update(change, texts);
    if (ok) region.current?.focus();
    return ok;
  };

  const data = zones.loaded.data;
  let notice = null;
  if (data) {
    const coverage = zoneCoverage(profiles);
    const general = generalProfile(profiles);
    if (coverage.asking === 0 && !data.confirmed && general && general.zones.length > 0)
      notice = <ZoneProposal general={general} busy={zones.busy} update={run} />;
    else if (coverage.asking === 0)
      notice = <NoZoneWarning general={general} busy={zones.busy} update={run} />;
    else if (typeof enabledRulesetId === 'string')
      notice = (
        <DestinationsWarning
          key={enabledRulesetId}
          rulesetId={enabledRulesetId}
          profiles={profiles}
          busy={zones.busy}
          update={run}
        />
      );
  }
  return (
    // Focused after an answer: the notice answered goes, what follows (if anything) is read.
    <div ref={region} tabIndex={-1} className="rs-zone-notices">
      {notice}
    </div>
  );
}

type Update = ShippingZones['update'];

/** First install: the General profile's zones, all checked, for the merchant to confirm. */
function ZoneProposal({
  general,
  busy,
  update,
}: {
  general: ShippingProfileJson;
  busy: string | undefined;
  update: Update;
}) {
  // A zone listing states or provinces names them; countries alone need no region table.
  const needsRegions = general.zones.some((zone) =>
    zone.countries.some((c) => c.provinces.length > 0),
  );
  const regions = useRegions(needsRegions);
  useNoticeSettled(regionsSettled(regions, needsRegions));
  const names = usePlaceNames(regions);
  const [selected, setSelected] = useState(() => general.zones.map((zone) => zone.id));
  const confirm = () =>
    void update(
      { zone_ids: selected, ratesmith: true },
      {
        busy: 'confirm',
        done: `Checkout now asks Ratesmith in ${zonesWord(selected.length)}.`,
        failed: FAILED,
      },
    );
  const notNow = () =>
    void update(
      { zone_ids: [], ratesmith: true },
      {
        busy: 'not-now',
        done: 'No zone chosen: you can choose them any time under Shipping zones.',
        failed: FAILED,
      },
    );
  return (
    <Card>
      <section aria-labelledby="rs-zone-proposal">
        <BlockStack gap="400">
          <BlockStack gap="200">
            <Text as="h2" variant="headingLg" id="rs-zone-proposal">
              Choose where checkout asks Ratesmith
            </Text>
            <Text as="p">
              Shopify asks Ratesmith for shipping rates only in the shipping zones you add it to.
              Ratesmith is in none yet, so checkout does not show its rates. Choose the zones of
              your General profile it should price; your other rates there stay as they are.
            </Text>
          </BlockStack>
          <ChoiceList
            title={`Zones of ${general.name}`}
            allowMultiple
            disabled={busy !== undefined}
            choices={general.zones.map((zone) => ({
              label: zone.name,
              value: zone.id,
              helpText: zoneCoverageLines(zone, names).join('; '),
            }))}
            selected={selected}
            onChange={setSelected}
          />
          {selected.length === 0 && (
            <Text as="p" tone="subdued">
              Check at least one zone, or choose Not now.
            </Text>
          )}
          <InlineStack gap="200">
            <Button
              variant="primary"
              onClick={confirm}
              loading={busy === 'confirm'}
              disabled={selected.length === 0 || busy === 'not-now'}
            >
              Confirm
            </Button>
            <Button onClick={notNow} loading={busy === 'not-now'} disabled={busy === 'confirm'}>
              Not now
            </Button>
          </InlineStack>
        </BlockStack>
      </section>
    </Card>
  );
}

/** No zone asks Ratesmith: checkout never shows its rates. */
function NoZoneWarning({
  general,
  busy,
  update,
}: {
  general: ShippingProfileJson | undefined;
  busy: string | undefined;
  update: Update;
}) {
  const zoneIds = general?.zones.map((zone) => zone.id) ?? [];
  return (
    <Banner
      tone="warning"
      title="Checkout never asks Ratesmith for rates"
      action={
        general && zoneIds.length > 0
          ? {
              content: `Add Ratesmith to every zone of ${general.name}`,
              loading: busy === 'fix-all',
              onAction: () =>
                void update(
                  { zone_ids: zoneIds, ratesmith: true },
                  {
                    busy: 'fix-all',
                    done: `Checkout now asks Ratesmith in every zone of ${general.name}.`,
                    failed: FAILED,
                  },
                ),
            }
          : undefined
      }
      secondaryAction={{ content: 'Choose shipping zones', url: '/shipping-zones' }}
    >
      <p>
        {general && zoneIds.length > 0
          ? 'Ratesmith is in none of your shipping zones, so checkout shows only your other shipping rates and your rules never apply.'
          : `${general?.name ?? 'The General profile'} has no shipping zones. Create them in ${SHOPIFY_SETTINGS}, then add Ratesmith to them.`}
      </p>
    </Banner>
  );
}

/** Places the enabled ruleset's rules are for that checkout never asks Ratesmith about. */
function DestinationsWarning({
  rulesetId,
  profiles,
  busy,
  update,
}: {
  rulesetId: string;
  profiles: ShippingProfileJson[];
  busy: string | undefined;
  update: Update;
}) {
  const filters = useGet('/api/global-rules/rules', {
    query: { globalRuleId: rulesetId },
    pick: (reply: RulesetFiltersReply) => reply.rules ?? [],
  });
  const reach = useMemo(
    () => destinationsReach(rulesetDestinations(filters.data ?? []), profiles),
    [filters.data, profiles],
  );
  // Only a state or province (`US-CA`) among the places named needs the region table.
  const needsRegions = reach.unreached.some((destination) => destination.includes('-'));
  const regions = useRegions(needsRegions);
  useNoticeSettled(!filters.loading && regionsSettled(regions, needsRegions));
  const names = usePlaceNames(regions);
  if (reach.unreached.length === 0) return null;
  const named = (list: string[]) =>
    inWords(list.map((d) => destinationName(d, names, regions.table !== undefined)));
  const zoneNames = profiles
    .flatMap((profile) => profile.zones)
    .filter((zone) => reach.zoneIds.includes(zone.id))
    .map((zone) => zone.name);
  return (
    <Banner
      tone="warning"
      title="Checkout does not ask Ratesmith about places your rules are for"
      action={
        reach.zoneIds.length > 0
          ? {
              content: `Add Ratesmith to ${inWords(zoneNames)}`,
              loading: busy === 'fix-destinations',
              onAction: () =>
                void update(
                  { zone_ids: reach.zoneIds, ratesmith: true },
                  {
                    busy: 'fix-destinations',
                    done: `Checkout now asks Ratesmith in ${inWords(zoneNames)}.`,
                    failed: FAILED,
                  },
                ),
            }
          : undefined
      }
      secondaryAction={{ content: 'Choose shipping zones', url: '/shipping-zones' }}
    >
      <BlockStack gap="100">
        <p>
          Your enabled ruleset has rules for {named(reach.unreached)}, but no shipping zone there
          asks Ratesmith, so those rules never reach checkout.
        </p>
        {reach.fixable.length > 0 && (
          <p>
            Adding Ratesmith to {inWords(zoneNames)} reaches {named(reach.fixable)}.
          </p>
        )}
        {reach.inNoZone.length > 0 && (
          <p>
            No shipping zone includes {named(reach.inNoZone)}: add{' '}
            {reach.inNoZone.length === 1 ? 'it' : 'them'} to a zone in {SHOPIFY_SETTINGS}, then add
            Ratesmith to that zone <Link url="/shipping-zones">under Shipping zones</Link>.
          </p>
        )}
      </BlockStack>
    </Banner>
  );
}
