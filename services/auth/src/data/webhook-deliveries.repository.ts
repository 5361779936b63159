import { ensureTtlIndex, isDuplicateKey } from '@ratesmith/kit';
import { Schema, type Connection, type Model } from 'mongoose';

/** How long a delivery id is remembered; Shopify retries a webhook for about 4 hours. */
export const WEBHOOK_ID_RETENTION_SECONDS = 48 * 3600;

interface DeliveryDoc {
  webhook_id: string;
  topic: string;
  received_at: Date;
}

const deliverySchema = new Schema<DeliveryDoc>(
  {
    webhook_id: { type: String, required: true },
    topic: { type: String, required: true },
    received_at: { type: Date, required: true },
  },
  { collection: 'webhook_deliveries' },
);
deliverySchema.index({ webhook_id: 1 }, { unique: true });

/**
 * X-Shopify-Webhook-Id values already acted on: a redelivery, or a captured
 * webhook replayed later, is acknowledged and does nothing. The unique index
 * lets exactly one of two concurrent deliveries claim an id. No shop is
 * stored: after shop/redact nothing here names the shop.
 */
export class WebhookDeliveriesRepository {
  readonly model: Model<DeliveryDoc>;

  constructor(conn: Connection) {
    this.model = conn.model<DeliveryDoc>('WebhookDelivery', deliverySchema);
  }

  async buildIndexes(): Promise<void> {
    await this.model.createIndexes();
    await ensureTtlIndex(this.model.collection, 'received_at', WEBHOOK_ID_RETENTION_SECONDS);
  }

  /** True for the first claim of the id; false when it was claimed before. */
  async claim(webhookId: string, topic: string): Promise<boolean> {
    try {
      await this.model.create({ webhook_id: webhookId, topic, received_at: new Date() });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /** The work for the id failed: Shopify's retry of it must run it again. */
  async release(webhookId: string): Promise<void> {
    await this.model.deleteOne({ webhook_id: webhookId });
  }
}
