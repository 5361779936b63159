import { Autocomplete, Icon } from '@shopify/polaris';
import { SearchIcon } from '@shopify/polaris-icons';
import { useEffect, useMemo, useState } from 'react';
import { COUNTRIES, countryName } from '../data/countries';

export interface CountrySelectProps {
  label: string;
  labelHidden?: boolean;
  /** ISO 3166-1 alpha-2 code, or '' when none is chosen. */
  value: string;
  onChange(code: string): void;
  error?: string;
}

/** A searchable select over the maintained country list: type a name or a code. */
export function CountrySelect({ label, labelHidden, value, onChange, error }: CountrySelectProps) {
  const chosen = value ? `${countryName(value)} (${value.toUpperCase()})` : '';
  const [input, setInput] = useState(chosen);
  // A value set from outside (load, field change) shows in the box.
  useEffect(() => setInput(chosen), [chosen]);

  const options = useMemo(() => {
    const query = input.trim().toLowerCase();
    const showAll = query === '' || input === chosen;
    return COUNTRIES.filter(
      (c) => showAll || c.name.toLowerCase().includes(query) || c.code.toLowerCase() === query,
    ).map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));
  }, [input, chosen]);

  return (
    <Autocomplete
      options={options}
      selected={value ? [value.toUpperCase()] : []}
      onSelect={(selected) => {
        const code = selected[0] ?? '';
        onChange(code);
        setInput(code ? `${countryName(code)} (${code})` : '');
      }}
      emptyState={<p>No country matches “{input}”.</p>}
      textField={
        <Autocomplete.TextField
          label={label}
          labelHidden={labelHidden}
          value={input}
          onChange={(text) => {
            setInput(text);
            if (text.trim() === '') onChange('');
          }}
          onBlur={() => setInput(chosen)}
          prefix={<Icon source={SearchIcon} tone="base" />}
          placeholder="Search countries"
          autoComplete="off"
          error={error}
        />
      }
    />
  );
}
