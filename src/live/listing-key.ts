/**
 * How a read names one listing, and what it remembers of each listing's size
 * (listing-sizes.ts). Below the live classes, which name their listings so.
 */
/** One listing of a read: a client's rules, one of its IP lists, by the name its class gives it. */
export type ListingKey = `${number}:${string}`;

export const listingKey = (client: number, listing: string): ListingKey => `${client}:${listing}`;

export type ListingSizes = ReadonlyMap<ListingKey, number>;
