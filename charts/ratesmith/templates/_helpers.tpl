{{/*
Shared helpers. Templates that render one object per service range over
.Values.services and call these with the context
(dict "root" $ "name" "<service>" "svc" <its values>).
*/}}

{{/* Prefix of every resource name, within Kubernetes' 63 characters. */}}
{{- define "ratesmith.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/*
A component's resource name: <fullname>-<name>. The prefix is cut, never the
suffix, so two components never collapse into one name at 63 characters.
Call with (dict "root" $ "name" "gateway").
*/}}
{{- define "ratesmith.componentName" -}}
{{- $prefix := include "ratesmith.fullname" .root | trunc (int (sub 62 (len .name))) | trimSuffix "-" -}}
{{- printf "%s-%s" $prefix .name -}}
{{- end -}}

{{/*
Selector labels: fixed for the life of a Deployment (its selector is immutable),
so no version in them.
*/}}
{{- define "ratesmith.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Every label of a component's objects: the selector labels and the ones that change. */}}
{{- define "ratesmith.labels" -}}
{{ include "ratesmith.selectorLabels" . }}
app.kubernetes.io/part-of: ratesmith
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end -}}

{{- define "ratesmith.secretName" -}}
{{- .Values.existingSecret | default (include "ratesmith.componentName" (dict "root" . "name" "secrets")) -}}
{{- end -}}

{{/* The public host, from appUrl: the Ingress serves exactly the URL Shopify calls. */}}
{{- define "ratesmith.host" -}}
{{- (urlParse .Values.appUrl).hostname -}}
{{- end -}}

{{- define "ratesmith.image" -}}
{{- $repository := .svc.image.repository | default (printf "%s/%s" .root.Values.image.repositoryPrefix .name) -}}
{{- $tag := .svc.image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- printf "%s:%s" $repository $tag -}}
{{- end -}}

{{/*
Seconds Kubernetes waits after the preStop hook starts before it kills the
container: the preStop sleep, then the service's own shutdown bound, plus 5 s
for the process to exit. Derived, so the two can never disagree.
*/}}
{{- define "ratesmith.terminationGracePeriodSeconds" -}}
{{- add .Values.preStopSleepSeconds (div (add .Values.shutdownTimeoutMs 999) 1000) 5 -}}
{{- end -}}

{{/*
The restricted Pod Security Standard: non-root (the node image's `node` user),
the runtime's default seccomp profile, no privilege escalation, no
capabilities, a read-only root filesystem (a small emptyDir serves /tmp).
*/}}
{{- define "ratesmith.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "ratesmith.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: ["ALL"]
{{- end -}}

{{/* Pod scheduling shared by every pod of the chart. */}}
{{- define "ratesmith.scheduling" -}}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{- define "ratesmith.secretEnv" -}}
- name: {{ .key }}
  valueFrom:
    secretKeyRef:
      name: {{ include "ratesmith.secretName" .root }}
      key: {{ .key }}
{{- end -}}

{{/*
A service's environment, the same in its Deployment and its migration Job (the
Job runs the service's own config parsing). Secrets are only ever referenced
(secretKeyRef), never inlined. DEMO_MODE is never set: production refuses it.
*/}}
{{- define "ratesmith.env" -}}
{{- $root := .root -}}
- name: NODE_ENV
  value: production
- name: LOG_LEVEL
  value: {{ $root.Values.logLevel | quote }}
- name: NATS_URL
  value: {{ $root.Values.nats.url | quote }}
- name: NATS_REQUEST_TIMEOUT_MS
  value: {{ $root.Values.nats.requestTimeoutMs | quote }}
- name: NATS_SUBJECT_PREFIX
  value: {{ $root.Values.nats.subjectPrefix | quote }}
# Read by rules and the rate engine; the bus's allow-lists name it too.
- name: SNAPSHOT_BUCKET
  value: {{ $root.Values.nats.snapshotBucket | quote }}
# Copies of the snapshot bucket and the events stream (rules, auth and the engine create them).
- name: JETSTREAM_REPLICAS
  value: {{ $root.Values.nats.jetstreamReplicas | quote }}
{{- if $root.Values.nats.auth.enabled }}
# The service's own NATS user: its key in the Secret of seeds.
- name: NATS_NKEY_SEED
  valueFrom:
    secretKeyRef:
      name: {{ $root.Values.nats.auth.existingSecret }}
      key: {{ .name }}
{{- end }}
{{- if $root.Values.nats.tls.caSecret }}
- name: NATS_TLS_CA_FILE
  value: {{ include "ratesmith.natsCaFile" . }}
{{- end }}
- name: HEALTH_PORT
  value: {{ $root.Values.healthPort | quote }}
- name: SHUTDOWN_TIMEOUT_MS
  value: {{ $root.Values.shutdownTimeoutMs | quote }}
{{- with trim (printf "%s %s" ($root.Values.nodeOptions | default "") (.svc.nodeOptions | default "")) }}
- name: NODE_OPTIONS
  value: {{ . | quote }}
{{- end }}
- name: OTEL_SERVICE_NAME
  value: {{ .name | quote }}
{{- with $root.Values.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- if .svc.httpPort }}
- name: PORT
  value: {{ .svc.httpPort | quote }}
{{- end }}
{{- if .svc.mongodbDatabase }}
- name: MONGODB_DB
  value: {{ .svc.mongodbDatabase | quote }}
- name: MONGODB_TIMEOUT_MS
  value: {{ $root.Values.mongodb.timeoutMs | quote }}
# Indexes are built by the migration Job, never at start-up (already the default when NODE_ENV is production).
- name: MONGODB_AUTO_INDEX
  value: "false"
{{ include "ratesmith.secretEnv" (dict "root" $root "key" "MONGODB_URI") }}
{{- end }}
{{- range .svc.secretEnv }}
{{ include "ratesmith.secretEnv" (dict "root" $root "key" .) }}
{{- end }}
{{- range $key, $value := .svc.env }}
- name: {{ $key }}
  value: {{ tpl (toString $value) $root | quote }}
{{- end }}
{{- end -}}


{{/* Where the NATS servers' CA is mounted (nats.tls.caSecret). */}}
{{- define "ratesmith.natsCaFile" -}}
/etc/ratesmith/nats-ca/ca.pem
{{- end -}}

{{/* Volume mounts of every service container: /tmp, and the NATS CA when TLS is on. */}}
{{- define "ratesmith.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if .root.Values.nats.tls.caSecret }}
- name: nats-ca
  mountPath: {{ include "ratesmith.natsCaFile" . | dir }}
  readOnly: true
{{- end }}
{{- end -}}

{{- define "ratesmith.volumes" -}}
- name: tmp
  emptyDir: { sizeLimit: 64Mi }
{{- if .root.Values.nats.tls.caSecret }}
- name: nats-ca
  secret:
    secretName: {{ .root.Values.nats.tls.caSecret }}
    items:
      - key: {{ .root.Values.nats.tls.caKey }}
        path: {{ include "ratesmith.natsCaFile" . | base }}
{{- end }}
{{- end -}}
