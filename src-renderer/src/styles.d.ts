/**
 * The window's stylesheets are imported for their effect (`import './styles.css'`): vite bundles
 * them, and they export nothing to type.
 */
declare module '*.css';
