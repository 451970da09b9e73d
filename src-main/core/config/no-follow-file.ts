// Moved to files/no-follow-file.ts (the ground floor). Kept for directory/directory-cache.ts while
// other branches rewrite it; the lead points its import at files/ and deletes this file.
export * from '../files/no-follow-file';
