import {
  settingsFieldOf,
  settingsFromJson,
  settingsToJson,
  type rulesV1,
  type SettingsReply,
} from '@ratesmith/contracts';
import { AppError, type ClientOf } from '@ratesmith/kit';
import type { RequestHandler } from 'express';
import { shopOf, traced, userOf } from '../../http/context';
import { FieldsError, parseInput } from '../../http/validate';
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
    const reply = await rules
      .call(
        'saveSettings',
        { shop: shopOf(res), settings: settingsFromJson(body), user: userOf(res) },
        traced(res),
      )
      .catch((err: unknown) => {
        throw withFields(err);
      });
    res.json({
      status: true,
      message: 'Settings saved.',
      settings: settingsToJson(reply.settings),
    } satisfies SettingsReply);
  };

  return { get, save };
}

/**
 * The rules service's refusal with each problem's field (settings-fields.ts
 * in the contracts writes each message once), so the page says it there.
 */
function withFields(err: unknown): unknown {
  if (!(err instanceof AppError) || err.kind !== 'invalid_data') return err;
  const fields: Record<string, string> = {};
  for (const message of err.details) {
    const field = settingsFieldOf(message);
    if (field) fields[field] ??= message;
  }
  return new FieldsError(err.message, err.details, fields);
}
