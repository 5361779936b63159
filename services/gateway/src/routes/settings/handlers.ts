import {
  settingsFromJson,
  settingsToJson,
  type rulesV1,
  type SettingsReply,
} from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import type { RequestHandler } from 'express';
import { shopOf, traced, userOf } from '../../http/context';
import { parseInput } from '../../http/validate';
import { saveSettingsBody } from './schemas';

export function settingsHandlers(rules: ClientOf<typeof rulesV1.RulesService>) {
  const get: RequestHandler = async (_req, res) => {
    const reply = await rules.call('getSettings', { shop: shopOf(res) }, traced(res));
    res.json({
      status: true,
      settings: settingsToJson(reply.settings),
      message: '',
    } satisfies SettingsReply);
  };

  const save: RequestHandler = async (req, res) => {
    const body = parseInput(saveSettingsBody, req.body);
    const reply = await rules.call(
      'saveSettings',
      { shop: shopOf(res), settings: settingsFromJson(body), user: userOf(res) },
      traced(res),
    );
    res.json({
      status: true,
      message: 'Settings saved.',
      settings: settingsToJson(reply.settings),
    } satisfies SettingsReply);
  };

  return { get, save };
}
