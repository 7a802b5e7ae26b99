import { Children, cloneElement, isValidElement } from "react";

/*
 * `asChild` for our own components (Button, TooltipTrigger): the component's props go onto its
 * one child element instead of a wrapper. The same contract as Radix's Slot for what we use
 * (props merged with the child's own winning, event handlers both called, the child's first;
 * classes joined; styles merged; refs composed), without its support for lazy children and
 * Slottable, which made it the largest piece of every page's first-load design-system code.
 */

type Props = Record<string, unknown>;

const isHandler = (name: string) => /^on[A-Z]/.test(name);

/** The slot's props and the child's, the child's winning; handlers, classes and styles combined. */
export function mergeSlotProps(slot: Props, child: Props): Props {
  const merged: Props = { ...slot, ...child };
  for (const name of Object.keys(slot)) {
    const ours = slot[name];
    const theirs = child[name];
    if (isHandler(name) && typeof ours === "function" && typeof theirs === "function") {
      merged[name] = (...args: unknown[]) => {
        const result: unknown = theirs(...args);
        ours(...args);
        return result;
      };
    } else if (name === "className" && ours && theirs) {
      merged[name] = `${String(ours)} ${String(theirs)}`;
    } else if (name === "style" && ours && theirs) {
      merged[name] = { ...(ours as object), ...(theirs as object) };
    } else if (theirs === undefined) {
      merged[name] = ours;
    }
  }
  return merged;
}

type Ref<T> = React.Ref<T> | undefined;

/** One ref callback setting every ref given (and undoing each, React 19's way, when detached). */
export function composeRefs<T>(...refs: Ref<T>[]): React.RefCallback<T> {
  return (node) => {
    const cleanups = refs.map((ref) => {
      if (typeof ref === "function") return ref(node);
      if (ref) ref.current = node;
      return undefined;
    });
    return () => {
      refs.forEach((ref, i) => {
        const cleanup = cleanups[i];
        if (typeof cleanup === "function") cleanup();
        else if (typeof ref === "function") ref(null);
        else if (ref) ref.current = null;
      });
    };
  };
}

/** Renders its one child element with the slot's props merged in. */
export function Slot({ children, ref, ...props }: { children?: React.ReactNode; ref?: Ref<HTMLElement> } & Props) {
  const child = Children.only(children);
  if (!isValidElement<Props>(child)) return null;
  const childRef = child.props.ref as Ref<HTMLElement>;
  return cloneElement(child, { ...mergeSlotProps(props, child.props), ref: ref ? composeRefs(ref, childRef) : childRef });
}
