import type { ShippingProfileJson, ShippingZoneCountryJson, ShippingZoneJson } from '../api';

/** Shipping zones for component tests, in the shape of /api/shipping-zones. */
export const country = (code: string, provinces: string[] = []): ShippingZoneCountryJson => ({
  code,
  rest_of_world: false,
  provinces,
});

export const REST_OF_WORLD: ShippingZoneCountryJson = {
  code: '',
  rest_of_world: true,
  provinces: [],
};

export const zone = (
  id: string,
  name: string,
  countries: ShippingZoneCountryJson[],
  ratesmith = false,
): ShippingZoneJson => ({ id: `gid://shopify/DeliveryZone/${id}`, name, countries, ratesmith });

export const profile = (
  id: string,
  name: string,
  zones: ShippingZoneJson[],
  isDefault = false,
): ShippingProfileJson => ({
  id: `gid://shopify/DeliveryProfile/${id}`,
  name,
  default: isDefault,
  zones,
});

/** A General profile with Domestic (US), North America (CA: ON, QC; MX) and Rest of world. */
export const generalProfile = (
  asking: { domestic?: boolean; na?: boolean; world?: boolean } = {},
) =>
  profile(
    '1',
    'General',
    [
      zone('1', 'Domestic', [country('US')], asking.domestic),
      zone('2', 'North America', [country('CA', ['ON', 'QC']), country('MX')], asking.na),
      zone('3', 'International', [REST_OF_WORLD], asking.world),
    ],
    true,
  );

export const zonesReply = (profiles: ShippingProfileJson[], confirmed = true, message = '') => ({
  status: 200,
  body: { status: true, message, profiles, confirmed },
});
