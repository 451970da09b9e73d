import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// First: the window's language and its catalog, loaded before anything renders.
import './i18n';
import { App } from './App';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
