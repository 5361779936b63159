import { LIMITS, type ConfigDocument } from '@ratesmith/contracts';
import { z } from 'zod';
import { booleanField } from '../../http/fields';
import type { SchemaAccepts } from '../../http/validate';
import { filterListSchema } from '../filter.schemas';
import { settingsBody } from '../settings/schemas';

/**
 * Shape and size of a configuration document (`ConfigDocument`); the rules
 * service checks the rulesets, filters and settings with the editor's own
 * validation and says what is wrong in its words.
 */
const numericId = z.union([z.string().regex(/^\d{1,20}$/), z.number().int().nonnegative()]);

export const configDocumentSchema = z.object({
  format: z.literal('ratesmith-config', { error: 'This is not a Ratesmith configuration file.' }),
  version: z.literal(1, { error: 'This configuration file is of a version this app cannot read.' }),
  exported_at: z.string().max(64).optional(),
  rulesets: z
    .array(
      z.object({
        name: z.string().max(1000),
        enabled: booleanField,
        filters: filterListSchema,
      }),
    )
    .max(LIMITS.rulesetsPerShop),
  product_rules: z
    .array(
      z.object({
        product_id: numericId.transform(String),
        variant_ids: z
          .array(numericId.transform(String))
          .max(LIMITS.variantsPerProduct)
          .default([]),
        enabled: booleanField,
        filters: filterListSchema,
      }),
    )
    .max(LIMITS.productRulesPerShop),
  settings: settingsBody,
});

/** An exported document passes the schema. */
export type ExportedConfigAccepted = SchemaAccepts<typeof configDocumentSchema, ConfigDocument>;

export const importQuery = z.object({
  dry_run: z.enum(['0', '1', 'true', 'false']).optional(),
});
