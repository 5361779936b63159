{{/* Release-scoped name, truncated to Kubernetes' 63 characters. */}}
{{- define "ratesmith.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* A component's resource name. Call with (dict "root" $ "name" "gateway"). */}}
{{- define "ratesmith.componentName" -}}
{{- printf "%s-%s" (include "ratesmith.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels that never change for a component: the selector. */}}
{{- define "ratesmith.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Every label of a component. */}}
{{- define "ratesmith.labels" -}}
{{ include "ratesmith.selectorLabels" . }}
app.kubernetes.io/part-of: ratesmith
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{- define "ratesmith.secretName" -}}
{{- .Values.existingSecret | default (printf "%s-secrets" (include "ratesmith.fullname" .)) -}}
{{- end -}}

{{- define "ratesmith.image" -}}
{{- if .svc.image -}}
{{- .svc.image -}}
{{- else -}}
{{- printf "%s/%s:%s" .root.Values.image.repository .name (.root.Values.image.tag | default .root.Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/* Restricted pod security (non-root, no privilege escalation, read-only root, no capabilities). */}}
{{- define "ratesmith.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "ratesmith.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: ["ALL"]
{{- end -}}

{{/* The environment of a component. Call with (dict "root" $ "name" name "svc" svc). */}}
{{- define "ratesmith.env" -}}
- name: NODE_ENV
  value: production
- name: LOG_LEVEL
  value: {{ .root.Values.logLevel | quote }}
- name: NATS_URL
  value: {{ .root.Values.nats.url | quote }}
- name: NATS_SUBJECT_PREFIX
  value: {{ .root.Values.nats.subjectPrefix | quote }}
- name: NATS_REQUEST_TIMEOUT_MS
  value: {{ .root.Values.nats.requestTimeoutMs | quote }}
- name: HEALTH_PORT
  value: {{ .root.Values.healthPort | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ .name | quote }}
{{- with .root.Values.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- if .svc.httpPort }}
- name: PORT
  value: {{ .svc.httpPort | quote }}
- name: APP_URL
  value: {{ .root.Values.appUrl | quote }}
- name: SHOPIFY_API_KEY
  value: {{ .root.Values.shopify.apiKey | quote }}
- name: SHOPIFY_API_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "ratesmith.secretName" .root }}
      key: SHOPIFY_API_SECRET
{{- end }}
{{- if .svc.mongoDb }}
- name: MONGODB_DB
  value: {{ .svc.mongoDb | quote }}
- name: MONGODB_AUTO_INDEX
  value: "false"
- name: MONGODB_URI
  valueFrom:
    secretKeyRef:
      name: {{ include "ratesmith.secretName" .root }}
      key: MONGODB_URI
{{- end }}
{{- range $key, $value := .svc.env }}
- name: {{ $key }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}
