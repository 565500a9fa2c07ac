import { isShowableLogoUrl } from "~/lib/agent-form";

/** The default logo of an agent without one: a chat bubble on a grey tile. Decorative (the name is beside it). */
export function FallbackAgentLogo({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
      data-testid="fallback-agent-logo"
    >
      <rect width="64" height="64" rx="8" fill="#eceff4" />
      <path d="M16 20a6 6 0 0 1 6-6h20a6 6 0 0 1 6 6v14a6 6 0 0 1-6 6H30l-8 8v-8a6 6 0 0 1-6-6z" fill="#c3c9d5" />
      <circle cx="25" cy="27" r="2.5" fill="#f4f6fa" />
      <circle cx="32" cy="27" r="2.5" fill="#f4f6fa" />
      <circle cx="39" cy="27" r="2.5" fill="#f4f6fa" />
    </svg>
  );
}

/** An agent's logo, or the default one. */
export function AgentLogo({
  src,
  className,
  alt = "",
}: {
  src: string | null | undefined;
  className?: string;
  alt?: string;
}) {
  if (!src || !isShowableLogoUrl(src)) return <FallbackAgentLogo className={className} />;
  return <img src={src} alt={alt} className={className} width={64} height={64} data-testid="agent-logo" />;
}
