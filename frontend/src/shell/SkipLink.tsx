import { useEffect, useRef } from 'react';
import { Outlet } from 'react-router-dom';
import { focusElement, focusIsInMain, focusWhenReady, MAIN_ID, pageHeading } from './focus';

/**
 * The first Tab stop of every page: hidden until focused, it moves focus past
 * the navigation to the page's heading (the next Tab is the page's first
 * action), or to the main landmark of a page without one.
 */
export function SkipLink() {
  return (
    <a
      className="rs-skip-link"
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        event.preventDefault();
        const target = pageHeading() ?? document.getElementById(MAIN_ID);
        if (target) focusElement(target);
      }}
    >
      Skip to content
    </a>
  );
}

/**
 * After a navigation inside the app (not on the first page load, where the
 * skip link is the first stop), the new page's heading takes focus, so the
 * keyboard continues from the top of the page and a screen reader says where
 * it is; unless the page put focus somewhere itself (a created ruleset's
 * first rule).
 */
export function useHeadingFocusOnNavigation(pathname: string): void {
  // The path the page was first shown at: a remount (StrictMode) is no navigation.
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    return focusWhenReady(() => pageHeading(), { unless: focusIsInMain });
  }, [pathname]);
}

/** A page outside the shell (/install): the skip link and the main landmark around it. */
export function SkipLinkFrame() {
  return (
    <>
      <SkipLink />
      <main id={MAIN_ID} tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
