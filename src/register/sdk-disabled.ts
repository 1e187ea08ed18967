/** `OTEL_SDK_DISABLED=true` (any case): the register starts nothing, and loads nothing to do so. */
export function sdkDisabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
}
