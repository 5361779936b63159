import { InlineStack, Select } from '@shopify/polaris';
import { useEffect, useMemo, useState } from 'react';
import { COUNTRIES } from '../data/countries';
import { useRegions } from '../data/regions';

export interface RegionSelectProps {
  label: string;
  /** `COUNTRY-PROVINCE` (`US-CA`), or '' when none is chosen yet. */
  value: string;
  onChange(region: string): void;
}

/**
 * A state or province: a country, then one of its ISO 3166-2 subdivisions
 * (data/regions.ts). The province list follows the chosen country; choosing
 * another country clears the province.
 */
export function RegionSelect({ label, value, onChange }: RegionSelectProps) {
  const fromValue = value.slice(0, 2).toUpperCase();
  const [country, setCountry] = useState(fromValue || 'US');
  useEffect(() => {
    if (fromValue) setCountry(fromValue);
  }, [fromValue]);
  const { table, failed } = useRegions();
  const countryOptions = useMemo(
    () =>
      COUNTRIES.filter((c) => !table || table.countries.has(c.code)).map((c) => ({
        label: c.name,
        value: c.code,
      })),
    [table],
  );
  const regions = table?.regionsOf(country) ?? [];
  const chosen = value.toUpperCase();
  const known = regions.some((r) => r.code === chosen);
  const options = table
    ? [
        { label: 'Choose a state or province', value: '', disabled: true },
        ...(chosen && !known ? [{ label: `${chosen} (not in the list)`, value: chosen }] : []),
        ...regions.map((r) => ({ label: `${r.name} (${r.code})`, value: r.code })),
      ]
    : // Until the table has loaded (or when it failed): the chosen code, and no list to pick from.
      [
        {
          label: failed
            ? // Short enough to show whole in the narrow select.
              `${chosen ? `${chosen}: list` : 'List'} not loaded. Reload the page.`
            : chosen || 'Loading states and provinces…',
          value: chosen,
        },
      ];
  return (
    <InlineStack gap="200" wrap={false}>
      <div style={{ minWidth: 150 }}>
        <Select
          label={`${label} country`}
          labelHidden
          options={countryOptions}
          value={country}
          disabled={!table}
          onChange={(next) => {
            setCountry(next);
            if (next !== fromValue) onChange('');
          }}
        />
      </div>
      <div style={{ flex: 1, minWidth: 180 }}>
        <Select
          label={label}
          labelHidden
          options={options}
          value={chosen}
          onChange={onChange}
          disabled={!table}
        />
      </div>
    </InlineStack>
  );
}
