/** The options page: the Linkboard address a save opens (docs/product.md, Browser extension and bookmarklet). */
import { readAddress, writeAddress } from '../../lib/address.ts';
import { BAD_ADDRESS } from '../../lib/share.ts';

const form = document.querySelector<HTMLFormElement>('#options')!;
const input = document.querySelector<HTMLInputElement>('#address')!;
const error = document.querySelector<HTMLElement>('#error')!;
const saved = document.querySelector<HTMLElement>('#saved')!;

void readAddress().then((address) => {
  input.value = address;
});

form.addEventListener('submit', (event) => {
  event.preventDefault();
  saved.textContent = '';
  void writeAddress(input.value).then((origin) => {
    input.setAttribute('aria-invalid', String(origin === null));
    error.textContent = origin === null ? BAD_ADDRESS : '';
    if (origin !== null) {
      input.value = origin;
      saved.textContent = 'Saved.';
    }
  });
});
