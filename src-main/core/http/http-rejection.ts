/** A request refused on purpose: the HTTP status to answer with and a message safe to show. */
export class HttpRejection extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpRejection';
  }
}
