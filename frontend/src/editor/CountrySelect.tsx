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
  // What the merchant typed since the list opened: the list shows every country until then.
  // A pick leaves it alone: a list that changes while the popover closes makes Polaris point
  // the box's aria-activedescendant at an option that is about to disappear.
  const [query, setQuery] = useState('');
  // A value set from outside (load, field change) shows in the box.
  useEffect(() => setInput(chosen), [chosen]);

  const options = useMemo(() => {
    const q = query.trim().toLowerCase();
    const matching = COUNTRIES.filter(
      (c) => q === '' || c.name.toLowerCase().includes(q) || c.code.toLowerCase() === q,
    );
    // The country whose code was typed comes first ("us": the United States, not Australia),
    // so Enter picks it.
    const byCode = matching.findIndex((c) => c.code.toLowerCase() === q);
    if (byCode > 0) matching.unshift(...matching.splice(byCode, 1));
    return matching.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));
  }, [query]);

  return (
    <Autocomplete
      options={options}
      selected={value ? [value.toUpperCase()] : []}
      onSelect={(selected) => {
        const code = selected[0] ?? '';
        onChange(code);
        setInput(code ? `${countryName(code)} (${code})` : '');
      }}
      emptyState={<p>No country matches “{query}”.</p>}
      textField={
        <Autocomplete.TextField
          label={label}
          labelHidden={labelHidden}
          value={input}
          onChange={(text) => {
            setInput(text);
            setQuery(text);
            if (text.trim() === '') onChange('');
          }}
          onFocus={() => setQuery('')}
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
