/**
 * A modal confirmation on the native <dialog>: the browser traps focus, Escape cancels,
 * and focus returns to the button that opened it.
 */
import { h } from './dom.js';

/** Resolves true when the person confirms, false on cancel or Escape. */
export function confirmDialog({ title, body, confirm, danger = false }) {
  const opener = document.activeElement;
  return new Promise((resolve) => {
    const cancelButton = h('button', { type: 'button', class: 'button button-quiet', onclick: () => dialog.close('cancel') }, 'Cancel');
    const confirmButton = h('button', { type: 'button', class: `button ${danger ? 'button-danger' : 'button-primary'}`, onclick: () => dialog.close('confirm') }, confirm);
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': 'dialog-title', 'aria-describedby': 'dialog-body' },
      h('h2', { id: 'dialog-title' }, title),
      h('p', { id: 'dialog-body' }, body),
      h('div', { class: 'dialog-actions' }, cancelButton, confirmButton));
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(dialog.returnValue === 'confirm');
    });
    document.body.append(dialog);
    dialog.showModal();
    // The safe choice has the focus first.
    cancelButton.focus();
  });
}
