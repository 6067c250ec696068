/** An email as accounts are stored and looked up by: case and surrounding spaces do not make another account. */
export const normalEmail = (email: string) => email.trim().toLowerCase();
