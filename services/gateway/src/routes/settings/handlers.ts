import type { rulesV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import type { RequestHandler } from 'express';
import { shopOf, traced } from '../../http/context';
import { parseInput } from '../../http/validate';
import { saveSettingsBody } from './schemas';

function settingsJson(settings: rulesV1.Settings | undefined) {
  return {
    carrier_name: settings?.carrierName ?? '',
    carrier_description: settings?.carrierDescription ?? '',
    bump_shipping_enabled: settings?.bumpShippingEnabled ?? false,
    bump_shipping_name: settings?.bumpShippingName ?? '',
    bump_shipping_description: settings?.bumpShippingDescription ?? '',
    bump_shipping_action: settings?.bumpShippingAction ?? null,
    bump_shipping_cost: settings?.bumpShippingCost ?? 0,
  };
}

export function settingsHandlers(rules: ClientOf<typeof rulesV1.RulesService>) {
  const get: RequestHandler = async (_req, res) => {
    const reply = await rules.call('getSettings', { shop: shopOf(res) }, traced(res));
    res.json({ status: true, settings: settingsJson(reply.settings), message: '' });
  };

  const save: RequestHandler = async (req, res) => {
    const body = parseInput(saveSettingsBody, req.body);
    const reply = await rules.call(
      'saveSettings',
      {
        shop: shopOf(res),
        settings: {
          carrierName: body.carrier_name,
          carrierDescription: body.carrier_description,
          bumpShippingEnabled: body.bump_shipping_enabled,
          bumpShippingName: body.bump_shipping_name,
          bumpShippingDescription: body.bump_shipping_description,
          bumpShippingAction: body.bump_shipping_action ?? undefined,
          bumpShippingCost: body.bump_shipping_cost,
        },
      },
      traced(res),
    );
    res.json({ status: true, message: 'Settings saved.', settings: settingsJson(reply.settings) });
  };

  return { get, save };
}
