"use client";

import NextLink from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps } from "react";

/**
 * next/link, prefetching when the artist reaches for a link (pointer over it, focus, touch) rather
 * than when it scrolls into view. Every page of the studio is dynamic, so each prefetch is a
 * server render (the session, the database): next/link's default sent about ten of them from a
 * task page while its viewer drew its first picture, on the same server and, in the benches, the
 * same cores. A click still finds its page under way: the pointer rests on a link 100 ms or more
 * before it clicks. `prefetch={false}` turns even that off. The studio's code imports this, not
 * next/link (eslint.config.mjs).
 */
function Link({ prefetch, onPointerEnter, onFocus, onTouchStart, href, ...props }: ComponentProps<typeof NextLink>) {
  const router = useRouter();
  const url = typeof href === "string" ? href : null;
  /** `handler`, after starting the link's prefetch (unless `prefetch={false}`). */
  const onIntent =
    <E,>(handler?: (event: E) => void) =>
    (event: E) => {
      if (prefetch !== false && url?.startsWith("/")) router.prefetch(url);
      handler?.(event);
    };
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onPointerEnter={onIntent(onPointerEnter)}
      onFocus={onIntent(onFocus)}
      onTouchStart={onIntent(onTouchStart)}
    />
  );
}

export default Link;
