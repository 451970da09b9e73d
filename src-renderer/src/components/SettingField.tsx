import type { ComponentProps } from 'react';
import { Field } from './Field';

/**
 * One setting in the Settings view: a {@link Field} in the Settings view's look. Every setting
 * goes through here, so what applies to all of them is added in this one place.
 */
export function SettingField(props: Omit<ComponentProps<typeof Field>, 'look'>) {
  return <Field {...props} look="setting" />;
}
