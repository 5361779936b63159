import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  DropZone,
  InlineStack,
  Layout,
  List,
  Page,
  Text,
} from '@shopify/polaris';
import type {
  ConfigDocument,
  ConfigImportPlan,
  ConfigImportReply,
} from '@ratesmith/contracts/edge';
import { useEffect, useState } from 'react';
import { ApiError, messageOf, useApi } from '../api';
import {
  checkoutWithoutRuleset,
  NoRulesetBanner,
  productRulesOf,
  readCheckoutWithoutRuleset,
  type CheckoutWithoutRuleset,
} from '../global-rules/withoutRuleset';
import { ShadowReport } from '../shadow/ShadowReport';
import { ImportFromShopify } from '../shopify-import/ImportFromShopify';
import { useToast } from '../toast';

/** An import looks every product up in the store: it may take longer than other calls. */
const IMPORT_TIMEOUT_MS = 60_000;

/** Saves the document as a file the merchant keeps (the session token rules out a plain link). */
function download(document_: ConfigDocument): void {
  const blob = new Blob([JSON.stringify(document_, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `ratesmith-config-${document_.exported_at.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

type Loaded = { fileName: string; body: unknown; reply: ConfigImportReply };

/**
 * Backup: the shop's whole configuration exported as one file, and a file
 * imported: its plan first (a dry run that changes nothing), then, confirmed,
 * all of it or nothing.
 */
export default function Backup() {
  const api = useApi();
  const toast = useToast();
  const [exporting, setExporting] = useState(false);
  const [checking, setChecking] = useState(false);
  const [importing, setImporting] = useState(false);
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const exportConfig = async () => {
    setExporting(true);
    try {
      download(await api.get<ConfigDocument>('/api/config/export'));
      toast.success('Configuration exported.');
    } catch (err) {
      toast.error(messageOf(err, 'The configuration could not be exported. Please try again.'));
    } finally {
      setExporting(false);
    }
  };

  const planImport = async (file: File) => {
    setLoaded(undefined);
    setProblem(undefined);
    setChecking(true);
    try {
      let body: unknown;
      try {
        body = JSON.parse(await file.text());
      } catch {
        setProblem(`${file.name} is not a configuration file (it is not JSON).`);
        return;
      }
      const reply = await api.post<ConfigImportReply>('/api/config/import', body, {
        query: { dry_run: 1 },
        timeoutMs: IMPORT_TIMEOUT_MS,
      });
      setLoaded({ fileName: file.name, body, reply });
    } catch (err) {
      setProblem(messageOf(err, 'The file could not be checked. Please try again.'));
    } finally {
      setChecking(false);
    }
  };

  const confirmImport = async () => {
    if (!loaded) return;
    setImporting(true);
    try {
      const reply = await api.post<ConfigImportReply>('/api/config/import', loaded.body, {
        timeoutMs: IMPORT_TIMEOUT_MS,
      });
      setLoaded({ ...loaded, reply });
      toast.success(reply.message);
    } catch (err) {
      const body = err instanceof ApiError ? (err.details.body as ConfigImportReply) : undefined;
      if (body?.plan) setLoaded({ ...loaded, reply: body });
      else toast.error(messageOf(err, 'The configuration could not be imported.'));
    } finally {
      setImporting(false);
    }
  };

  return (
    <Page title="Backup">
      <Layout>
        <Layout.AnnotatedSection
          title="Export"
          description="Every ruleset with its rules, every product rule and your settings, in one file you can keep or import into another store."
        >
          <Card>
            <Button onClick={() => void exportConfig()} loading={exporting}>
              Export configuration
            </Button>
          </Card>
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection
          title="Import"
          description="Rulesets replace those of the same name, product rules those of the same product, and the settings yours. You see what will change before anything does."
        >
          <Card>
            <BlockStack gap="400">
              <DropZone
                label="Configuration file"
                accept="application/json,.json"
                type="file"
                allowMultiple={false}
                disabled={checking || importing}
                onDropAccepted={([file]) => file && void planImport(file)}
                onDropRejected={() => setProblem('Please choose a .json configuration file.')}
              >
                <DropZone.FileUpload
                  actionTitle={checking ? 'Checking…' : 'Choose file'}
                  actionHint="or drop a .json file exported by Ratesmith"
                />
              </DropZone>
              {checking && (
                <Text as="p" tone="subdued">
                  Checking the file…
                </Text>
              )}
              {problem && (
                <Banner tone="critical" title="This file cannot be imported">
                  <p>{problem}</p>
                </Banner>
              )}
              {loaded && (
                <ImportPlan
                  loaded={loaded}
                  importing={importing}
                  onConfirm={() => void confirmImport()}
                  onCancel={() => setLoaded(undefined)}
                />
              )}
            </BlockStack>
          </Card>
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection
          title="Import from Shopify"
          description="Your shipping rates in Shopify (Settings › Shipping and delivery) as one new ruleset, so checkout gets the same rates from Ratesmith. You see the plan first; your enabled ruleset stays as it is."
        >
          <Card>
            <ImportFromShopify />
          </Card>
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection
          title="Shadow mode"
          description="Try a ruleset on real checkouts before it goes live: checkout keeps showing your Shopify rates, and the report compares each cart with what Ratesmith would have charged."
        >
          <Card>
            <ShadowReport />
          </Card>
        </Layout.AnnotatedSection>
      </Layout>
    </Page>
  );
}

function ImportPlan({
  loaded,
  importing,
  onConfirm,
  onCancel,
}: {
  loaded: Loaded;
  importing: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { reply, fileName } = loaded;
  const { plan, errors } = reply;
  const nothing = !plan.rulesets.length && !plan.product_rules.length && !plan.settings.length;
  return (
    <BlockStack gap="400">
      <Text as="h3" variant="headingMd">
        {reply.applied ? `Imported from ${fileName}` : `What importing ${fileName} will change`}
      </Text>
      {errors.length > 0 && (
        <Banner
          tone="critical"
          title="Please fix the following errors in the file; nothing was changed:"
        >
          <List>
            {errors.map((error) => (
              <List.Item key={error}>{error}</List.Item>
            ))}
          </List>
        </Banner>
      )}
      {plan.missing_products.length > 0 && (
        <Banner
          tone="warning"
          title="Product rules for products not in this store are not imported"
        >
          <List>
            {plan.missing_products.map((m) => (
              <List.Item key={m.product_id}>
                {m.variant_ids.length
                  ? `Product ${m.product_id}: variants ${m.variant_ids.join(', ')} are not in this store`
                  : `Product ${m.product_id} is not in this store`}
              </List.Item>
            ))}
          </List>
        </Banner>
      )}
      {turnsOffRuleset(plan) && errors.length === 0 && (
        <ImportDisablesWarning plan={plan} applied={reply.applied} />
      )}
      {nothing && <Text as="p">The file holds nothing to import.</Text>}
      {plan.rulesets.length > 0 && (
        <PlanSection title="Rulesets">
          {plan.rulesets.map((r) => (
            <List.Item key={r.name}>
              <InlineStack gap="200" blockAlign="center">
                <ActionBadge action={r.action} />
                <Text as="span">
                  {r.name}: {r.filters_count} {r.filters_count === 1 ? 'rule' : 'rules'}
                  {r.enabled ? ', enabled' : ''}
                </Text>
              </InlineStack>
            </List.Item>
          ))}
        </PlanSection>
      )}
      {plan.product_rules.length > 0 && (
        <PlanSection title="Product rules">
          {plan.product_rules.map((r) => (
            <List.Item key={r.product_id}>
              <InlineStack gap="200" blockAlign="center">
                <ActionBadge action={r.action} />
                <Text as="span">
                  {r.title}: {r.filters_count} {r.filters_count === 1 ? 'rule' : 'rules'}
                  {r.enabled ? '' : ', disabled'}
                </Text>
              </InlineStack>
            </List.Item>
          ))}
        </PlanSection>
      )}
      {plan.settings.length > 0 && (
        <PlanSection title="Settings">
          {plan.settings.map((s) => (
            <List.Item key={s.field}>
              {SETTING_LABELS[s.field] ?? s.field}: {shown(s.before)} → {shown(s.after)}
            </List.Item>
          ))}
        </PlanSection>
      )}
      {!reply.applied && (
        <InlineStack gap="200">
          <Button
            variant="primary"
            onClick={onConfirm}
            loading={importing}
            disabled={errors.length > 0 || nothing}
          >
            Confirm import
          </Button>
          <Button onClick={onCancel} disabled={importing}>
            Cancel
          </Button>
        </InlineStack>
      )}
    </BlockStack>
  );
}

/** The import leaves no ruleset enabled where one is now: the file enables none. */
function turnsOffRuleset(plan: ConfigImportPlan): boolean {
  const change = plan.settings.find((s) => s.field === 'enabled_ruleset');
  return change !== undefined && JSON.parse(change.after) === null;
}

/** The fallback fields as they will be after the import: the file's where the plan changes them. */
const FALLBACK_FIELDS = ['fallback_enabled', 'fallback_name', 'fallback_cost'] as const;

/**
 * What checkout gets once the import has turned the enabled ruleset off: the
 * shop's settings and product rules now, with the plan's changes to them.
 */
function ImportDisablesWarning({ plan, applied }: { plan: ConfigImportPlan; applied: boolean }) {
  const api = useApi();
  const [facts, setFacts] = useState<CheckoutWithoutRuleset | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    readCheckoutWithoutRuleset(api, controller.signal).then(
      ({ settings, productRules }) => {
        if (controller.signal.aborted) return;
        // Once applied, the shop's own figures already hold the file's.
        const next = { ...settings };
        if (!applied)
          for (const change of plan.settings)
            if ((FALLBACK_FIELDS as readonly string[]).includes(change.field))
              Object.assign(next, { [change.field]: JSON.parse(change.after) as unknown });
        const rules = new Map(productRulesOf(productRules).map((r) => [r.productId, r]));
        if (!applied)
          for (const r of plan.product_rules)
            rules.set(r.product_id, {
              productId: r.product_id,
              enabled: r.enabled,
              filters: r.filters_count,
            });
        setFacts(checkoutWithoutRuleset(next, [...rules.values()]));
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [api, plan, applied]);
  return (
    <NoRulesetBanner
      title={
        applied ? 'No ruleset is enabled now' : 'No ruleset will be enabled: the file enables none'
      }
      facts={facts}
      tense={applied ? 'now' : 'will'}
      action={applied ? { content: 'Go to Global Rules', url: '/global-rules' } : undefined}
    />
  );
}

const SETTING_LABELS: Record<string, string> = {
  carrier_name: 'Carrier name',
  carrier_description: 'Carrier description',
  bump_shipping_enabled: 'Offer bump shipping',
  bump_shipping_name: 'Bump shipping name',
  bump_shipping_description: 'Bump shipping description',
  bump_shipping_action: 'Bump shipping action',
  bump_shipping_cost: 'Bump shipping cost',
  enabled_ruleset: 'Enabled ruleset',
};

/** A setting's value (JSON text) in words. */
function shown(json: string): string {
  const value: unknown = JSON.parse(json);
  if (value === null || value === '') return '(none)';
  if (value === true) return 'yes';
  if (value === false) return 'no';
  return String(value);
}

function PlanSection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <BlockStack gap="200">
      <Text as="h4" variant="headingSm">
        {title}
      </Text>
      <List>{children}</List>
    </BlockStack>
  );
}

function ActionBadge({ action }: { action: 'add' | 'replace' }) {
  return action === 'add' ? (
    <Badge tone="success">Add</Badge>
  ) : (
    <Badge tone="attention">Replace</Badge>
  );
}
