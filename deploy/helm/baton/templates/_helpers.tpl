{{/* The release's name for every object, cut to the 63 characters Kubernetes allows. */}}
{{- define "baton.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "baton.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* The node pods only: not the migration Job's pod. */}}
{{- define "baton.nodeSelectorLabels" -}}
{{ include "baton.selectorLabels" . }}
app.kubernetes.io/component: node
{{- end -}}

{{- define "baton.labels" -}}
{{ include "baton.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "baton.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "baton.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "baton.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository $tag -}}
{{- end -}}
{{- end -}}

{{/* A duration with a unit (500ms, 30s, 2m, 1h) in whole seconds, rounded up. */}}
{{- define "baton.seconds" -}}
{{- $d := toString . -}}
{{- if hasSuffix "ms" $d -}}
{{- div (add (trimSuffix "ms" $d | int) 999) 1000 -}}
{{- else if hasSuffix "s" $d -}}
{{- trimSuffix "s" $d | int -}}
{{- else if hasSuffix "m" $d -}}
{{- mul (trimSuffix "m" $d | int) 60 -}}
{{- else if hasSuffix "h" $d -}}
{{- mul (trimSuffix "h" $d | int) 3600 -}}
{{- else -}}
{{- fail (printf "config.execution.drainTimeout %q needs a unit: ms, s, m or h" $d) -}}
{{- end -}}
{{- end -}}

{{/* terminationGracePeriodSeconds: the preStop pause, the drain, then the margin. */}}
{{- define "baton.gracePeriod" -}}
{{- $drain := include "baton.seconds" (dig "execution" "drainTimeout" "30s" .Values.config) | int -}}
{{- add .Values.termination.preStopSeconds $drain .Values.termination.marginSeconds -}}
{{- end -}}

{{/* The node configuration the pods read; store.migrate is off: the Job migrates. */}}
{{- define "baton.nodeConfig" -}}
{{- $fixed := dict "http" (dict "host" "0.0.0.0" "port" .Values.http.port) "store" (dict "type" "postgres" "migrate" false) "lease" (dict "type" "etcd") -}}
{{- $config := mergeOverwrite (deepCopy .Values.config) $fixed -}}
{{- if .Values.lease.tlsSecret -}}
{{- $_ := set $config.lease "caFile" "/etc/baton/etcd-tls/ca.crt" -}}
{{- $_ := set $config.lease "certFile" "/etc/baton/etcd-tls/tls.crt" -}}
{{- $_ := set $config.lease "keyFile" "/etc/baton/etcd-tls/tls.key" -}}
{{- end -}}
{{- if .Values.auth.keysSecret -}}
{{- $_ := set $config "auth" (mergeOverwrite (default (dict) $config.auth) (dict "mode" "keys" "keysFile" (printf "/etc/baton/keys/%s" .Values.auth.keysKey))) -}}
{{- else -}}
{{- $_ := set $config "auth" (mergeOverwrite (default (dict) $config.auth) (dict "mode" "none")) -}}
{{- end -}}
{{- with (include "baton.oidcConfig" . | fromYaml) -}}
{{- $_ := set $config.auth "oidc" . -}}
{{- end -}}
{{- toYaml $config -}}
{{- end -}}

{{/* auth.oidc of the node configuration: the non-empty values of auth.oidc, when an issuer is set. */}}
{{- define "baton.oidcConfig" -}}
{{- $oidc := .Values.auth.oidc -}}
{{- if $oidc.issuer -}}
{{- if not .Values.auth.keysSecret -}}
{{- fail "auth.oidc.issuer needs auth.keysSecret: OIDC tokens are accepted with auth.mode keys, besides API keys" -}}
{{- end -}}
{{- $_ := required "auth.oidc.audience is required with auth.oidc.issuer (the aud the tokens must name)" $oidc.audience -}}
{{- $set := dict -}}
{{- range $key, $value := $oidc -}}
{{- if $value -}}
{{- $_ := set $set $key $value -}}
{{- end -}}
{{- end -}}
{{- toYaml $set -}}
{{- else -}}
{{- range $key := list "audience" "jwksUrl" "clientId" "flowsClaim" -}}
{{- if index $oidc $key -}}
{{- fail (printf "auth.oidc.%s needs auth.oidc.issuer" $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The credentials, each from a Secret. */}}
{{- define "baton.secretEnv" -}}
- name: BATON_STORE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ required "store.existingSecret names the Secret with the PostgreSQL password" .Values.store.existingSecret }}
      key: {{ .Values.store.passwordKey }}
{{- if .Values.lease.existingSecret }}
- name: BATON_LEASE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .Values.lease.existingSecret }}
      key: {{ .Values.lease.passwordKey }}
{{- end }}
{{- end -}}
