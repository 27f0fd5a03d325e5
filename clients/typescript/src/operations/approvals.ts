import { graphql } from '../generated/index.js';

/** Operations waiting for an approver, oldest first (approver and observer tokens). */
export const PendingApprovalsDocument = graphql(`
  query PendingApprovals {
    pendingApprovals {
      id
      operation
      risk
      reasons
      expiresAt
      target {
        role
        name
      }
    }
  }
`);

/** Lets a waiting operation go ahead (approver tokens). */
export const ApproveDocument = graphql(`
  mutation Approve($id: ID!, $scope: ApprovalScope) {
    approve(id: $id, scope: $scope) {
      status
      decidedBy
      scope
    }
  }
`);

/** Refuses a waiting operation; the agent gets POLICY_DENIED with the reason (approver tokens). */
export const DenyDocument = graphql(`
  mutation Deny($id: ID!, $reason: String) {
    deny(id: $id, reason: $reason) {
      status
      decidedBy
      reason
    }
  }
`);
