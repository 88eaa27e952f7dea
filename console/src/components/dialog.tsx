import { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A modal dialog on the browser's own <dialog>: showModal() traps focus and closes on Escape;
 * focus starts on its first control and, on close, goes back to the control that opened it
 * (what a keyboard user expects).
 */
export function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const dialog = ref.current;
    dialog?.showModal();
    // The browser may focus the dialog box itself: focus its autofocus control, else its first field or button.
    const first = dialog?.querySelector<HTMLElement>('[autofocus]') ?? dialog?.querySelector<HTMLElement>('input:not([type=hidden]), select, textarea, button');
    first?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);
  return (
    <dialog ref={ref} class={props.wide ? 'dialog wide' : 'dialog'} aria-labelledby="dialog-title" onClose={props.onClose}>
      <h2 id="dialog-title">{props.title}</h2>
      {props.children}
    </dialog>
  );
}
