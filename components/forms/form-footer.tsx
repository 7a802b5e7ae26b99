import { CostSummary } from "./cost-summary";
import { FormAlert, SubmitButton } from "./fields";

interface FormFooterProps {
  /** The task's credits (undefined when the table does not know the choice). */
  cost: number | undefined;
  /** The form's sentence from the server, if any. */
  message?: string | undefined;
  pending: boolean;
  /** The submit button's icon and words. */
  icon: React.ReactNode;
  children: React.ReactNode;
}

/** The end of a create form: the server's sentence, the cost line, and the submit button under it. */
export function FormFooter({ cost, message, pending, icon, children }: FormFooterProps) {
  return (
    <div className="space-y-3 border-t border-border pt-4">
      <FormAlert message={message} />
      <CostSummary cost={cost} />
      <SubmitButton pending={pending} icon={icon}>
        {children}
      </SubmitButton>
    </div>
  );
}
