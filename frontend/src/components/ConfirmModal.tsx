import { Modal, type ModalProps } from '@shopify/polaris';
import type { ReactNode } from 'react';

export interface ConfirmModalProps {
  open: boolean;
  /** Where focus goes back to when it closes. */
  activator?: ModalProps['activator'];
  onClose: () => void;
  title: string;
  /** The confirming button's words ("Delete", "Enable"). */
  action: string;
  destructive?: boolean;
  /** The confirmed change runs: the button spins. */
  busy: boolean;
  onConfirm: () => unknown;
  children: ReactNode;
}

/** A question before a change (delete, disable, enable instead, remove): the change, or Cancel. */
export function ConfirmModal(props: ConfirmModalProps) {
  const { open, activator, onClose, title } = props;
  return (
    <Modal
      open={open}
      activator={activator}
      onClose={onClose}
      title={title}
      primaryAction={{
        content: props.action,
        destructive: props.destructive,
        loading: props.busy,
        onAction: () => void props.onConfirm(),
      }}
      secondaryActions={[{ content: 'Cancel', onAction: onClose }]}
    >
      <Modal.Section>{props.children}</Modal.Section>
    </Modal>
  );
}
