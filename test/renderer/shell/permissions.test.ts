// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { defineComponent, h } from 'vue';
import { permission } from '../../../api/permissions.ts';
import ActionButton from '../../../renderer/src/components/ActionButton.vue';
import { usePermissions } from '../../../renderer/src/composables/usePermissions.ts';
import { mountWithApp } from '../support/mountWithApp.ts';

const PLANTS_DELETE = permission('PLANTS', 'DELETE');

/** Captures usePermissions() as a component sees it. */
let api: ReturnType<typeof usePermissions> | undefined;
const Probe = defineComponent({
  setup() {
    api = usePermissions();
    return () => h('p');
  },
});

describe('usePermissions', () => {
  test('answers from the signed-in user and names what is missing', async () => {
    await mountWithApp(Probe, { user: { permissions: ['PLANTS READ', 'PLANTS DELETE'] } });
    expect(api!.can(PLANTS_DELETE)).toBe(true);
    expect(api!.missing(PLANTS_DELETE)).toBeNull();
    expect(api!.can(permission('SENSORS', 'CREATE'))).toBe(false);
    expect(api!.missing(permission('SENSORS', 'CREATE'))).toBe(
      'Requires the permission SENSORS CREATE',
    );
  });

  test('a signed-out user has no permission', async () => {
    await mountWithApp(Probe, { user: null });
    expect(api!.can(permission('PLANTS', 'READ'))).toBe(false);
  });
});

describe('ActionButton', () => {
  test('with the permission: an ordinary enabled button passing attributes and clicks', async () => {
    const clicks: string[] = [];
    const app = await mountWithApp(ActionButton, {
      props: {
        permission: PLANTS_DELETE,
        label: 'Delete',
        severity: 'danger',
        class: 'spaced',
        onClick: () => clicks.push('delete'),
      },
      user: { permissions: ['PLANTS DELETE'] },
    });
    const button = app.wrapper.get('button');
    expect(button.text()).toBe('Delete');
    expect(button.attributes('disabled')).toBeUndefined();
    expect(button.classes()).toContain('spaced');
    expect(app.wrapper.find('[role="tooltip"]').exists()).toBe(false);
    await button.trigger('click');
    expect(clicks).toEqual(['delete']);
  });

  test('without it: disabled, with a tooltip naming the permission, described for keyboards', async () => {
    const clicks: string[] = [];
    const app = await mountWithApp(ActionButton, {
      props: {
        permission: PLANTS_DELETE,
        label: 'Delete',
        class: 'spaced',
        onClick: () => clicks.push('delete'),
      },
      user: { permissions: ['PLANTS READ'] },
    });
    const button = app.wrapper.get('button');
    expect(button.attributes('disabled')).toBeDefined();
    const tooltip = app.wrapper.get('[role="tooltip"]');
    expect(tooltip.text()).toBe('Requires the permission PLANTS DELETE');
    // The button's description is the tooltip, and the wrapper (which gets hover and keyboard
    // focus, unlike a disabled button) shows it.
    expect(button.attributes('aria-describedby')).toBe(tooltip.attributes('id'));
    const wrapper = app.wrapper.get('.action-blocked');
    expect(wrapper.attributes('tabindex')).toBe('0');
    expect(wrapper.classes()).toContain('spaced');
    await button.trigger('click');
    expect(clicks).toEqual([]);
  });

  test('follows the user: permissions read again enable the button', async () => {
    const app = await mountWithApp(ActionButton, {
      props: { permission: PLANTS_DELETE, label: 'Delete' },
      user: { permissions: [] },
    });
    expect(app.wrapper.get('button').attributes('disabled')).toBeDefined();
    app.emit('session.changed', {
      environmentId: 'local',
      status: 'signedIn',
      user: {
        userUuid: '00000000-0000-4000-8000-000000000001',
        email: 'a@b.c',
        displayName: 'A',
        organizationUuid: '00000000-0000-4000-8000-0000000000aa',
        organizationName: 'O',
        permissions: ['PLANTS DELETE'],
      },
    });
    await app.settle();
    expect(app.wrapper.get('button').attributes('disabled')).toBeUndefined();
  });

  test('without a permission prop it is a plain button honouring disabled', async () => {
    const app = await mountWithApp(ActionButton, {
      props: { label: 'Save', disabled: true },
      user: { permissions: [] },
    });
    expect(app.wrapper.get('button').attributes('disabled')).toBeDefined();
    expect(app.wrapper.find('[role="tooltip"]').exists()).toBe(false);
  });
});
