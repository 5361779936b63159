import { render, screen } from '@testing-library/react';
import { AppProviders } from '../AppProviders';
import { RegionSelect } from './RegionSelect';

// The region table's chunk cannot be loaded (a network failure, a deploy in between).
jest.mock('../data/region-table', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('RegionSelect without its region table', () => {
  it('says the list could not be loaded, keeps the chosen code and offers nothing else', async () => {
    const { rerender } = render(
      <AppProviders>
        <RegionSelect label="State or province" value="" onChange={() => undefined} />
      </AppProviders>,
    );
    const select = screen.getByLabelText('State or province') as HTMLSelectElement;
    expect(select.disabled).toBe(true);
    expect(
      await screen.findByRole('option', {
        name: 'List not loaded. Reload the page.',
      }),
    ).toBeTruthy();
    rerender(
      <AppProviders>
        <RegionSelect label="State or province" value="us-ca" onChange={() => undefined} />
      </AppProviders>,
    );
    expect(
      [...(screen.getByLabelText('State or province') as HTMLSelectElement).options].map(
        (o) => o.textContent,
      ),
    ).toEqual(['US-CA: list not loaded. Reload the page.']);
    expect((screen.getByLabelText('State or province country') as HTMLSelectElement).disabled).toBe(
      true,
    );
  });
});
