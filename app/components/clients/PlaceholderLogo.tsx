/** The neutral logo of a client without one: a building on a grey tile. Decorative (the name is beside it). */
export function PlaceholderLogo({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 56 56" aria-hidden="true" focusable="false" data-testid="placeholder-logo">
      <rect width="56" height="56" rx="8" fill="#eceff4" />
      <path d="M17 40V19l11-5 11 5v21z" fill="#c3c9d5" />
      <path d="M22 24h4v4h-4zm8 0h4v4h-4zm-8 7h4v4h-4zm8 0h4v4h-4z" fill="#f4f6fa" />
      <path d="M14 40h28v2H14z" fill="#9aa3b5" />
    </svg>
  );
}
