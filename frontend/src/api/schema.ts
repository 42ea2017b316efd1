// Generated from docs/openapi.json by openapi-typescript (cd api-contract && npm run types). Do not edit:
// the document is generated from the code (docs/api.md, "The OpenAPI document").

export interface paths {
    "/actuator/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The status only (public). */
        get: operations["monitoringHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/health/liveness": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness (public): the process runs. */
        get: operations["monitoringLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/health/readiness": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness (public): the database and the scheduler; what a load balancer probes. A GitLab or approval outage never makes an instance unready. */
        get: operations["monitoringReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This instance's version (build), commit (git) and name (instance: its row in GET /ops/instances). For operators: needs one of ops.admin, ops.operator (changeflow.monitoring.rule-codes). */
        get: operations["monitoringInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/prometheus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The Prometheus scrape. For operators: needs one of ops.admin, ops.operator (changeflow.monitoring.rule-codes). */
        get: operations["monitoringPrometheus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/bindings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** My subject-target relationships */
        get: operations["userBindings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/bindings/{targetKey}/give-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give up a grant in effect */
        post: operations["grantsGiveUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/drift": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Drift that concerns me */
        get: operations["driftMine"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who am I and what may I do */
        get: operations["userMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** My requests, newest first, optionally of one status and one target */
        get: operations["requestsMine"];
        put?: never;
        /** Submit a change request */
        post: operations["requestsSubmit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests/{operationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One request, to its requester or an operator */
        get: operations["requestsShow"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Preview the line a request would write */
        get: operations["requestsPreview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/targets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The catalog of targets */
        get: operations["userTargets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/callbacks/approval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The approval system reports a decision */
        post: operations["callbacksApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/callbacks/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The deploy pipeline reports a rollout */
        post: operations["callbacksDeploy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/callbacks/gitlab": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** GitLab's project webhook: a pipeline or merge request event wakes the waiting step */
        post: operations["gitLabHooksHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/audit/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The life of every grant requested or in effect in a time range, as JSON lines or CSV (operators)
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["auditExportGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/batch-rounds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a batch round now
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["batchesRound"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The newest batches with their members, by status and partition
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["batchesRecent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/batches/{id}/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Settle a stuck or blocked batch
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["batchesSettle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/bindings/{subjectId}/{targetKey}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a grant in effect
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["grantsRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every dynamic setting as resolved now
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["configConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/drift": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Drift between the grant files on main and the records
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["driftList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/drift/{id}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge a drift item with a reason
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["driftAcknowledge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/drift/{id}/adopt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Adopt a drift item's line as a grant with an until
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["driftAdopt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/drift/{id}/remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove a drift item's line through the workflow
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["driftRemove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/gitlab-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What in the catalog projects' GitLab settings will stop Changeflow
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["gitLabCheckCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/grants/expiring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Grants in effect expiring within a window (default 24 hours), counted by the server
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["grantsExpiring"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/instances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every instance with its version and commit
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["instancesInstances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The notifications' outbox: queued messages and where they stand
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["notificationsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/operations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find requests untouched for a while
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["operationsFind"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/operations/{operationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Everything about one request
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["operationsShow"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/operations/{operationId}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a request without merging
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["operationsClose"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/operations/{operationId}/confirm-deployed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a merged change in effect
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["operationsConfirmDeployed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/operations/{operationId}/mark-deploy-failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark a merged change's rollout failed
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["operationsMarkDeployFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/operations/{operationId}/retrigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-run the step where a request stopped
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["operationsRetrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/overdue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Requests past the deadline of their next move
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["overdueOverdue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The operations overview: states, waits, 24 hours, dependencies, backlog, batch slots
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["overviewOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/reconciliation-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the lost-callback reconciliation now
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["operationsReconcile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Legacy statistics (no envelope)
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["operationsStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/demo-users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The demo people (sandbox) */
        get: operations["demoLoginDemoUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/faults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sandbox simulator: faults, all
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["faultsAll"];
        put?: never;
        post?: never;
        /**
         * Sandbox simulator: faults, clear
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        delete: operations["faultsClear"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/faults/{system}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Sandbox simulator: faults, configure
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        put: operations["faultsConfigure"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/faults/approval/controls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sandbox simulator: approval controls, read
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["approvalControlsRead"];
        /**
         * Sandbox simulator: approval controls, change
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        put: operations["approvalControlsChange"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/faults/deploy/commit-reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sandbox simulator: deploy commit reports, report
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["deployCommitReportsReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/faults/deploy/controls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sandbox simulator: deploy controls, read
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["deployControlsRead"];
        /**
         * Sandbox simulator: deploy controls, change
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        put: operations["deployControlsChange"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/faults/seed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sandbox simulator: faults, reseed
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["faultsReseed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/faults/traces/{traceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sandbox simulator: faults, received
         * @description Needs one of the rule codes ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["faultsReceived"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in as a demo person (sandbox) */
        post: operations["demoLoginLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out (sandbox) */
        post: operations["demoLoginLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sim/approval/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sandbox simulator: approver inbox, pending
         * @description Needs one of the rule codes approvals.approver, ops.admin, ops.operator (changeflow.authorization.rules).
         */
        get: operations["approverInboxPending"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sim/approval/inbox/{ticket}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sandbox simulator: approver inbox, decide
         * @description Needs one of the rule codes approvals.approver, ops.admin, ops.operator (changeflow.authorization.rules).
         */
        post: operations["approverInboxDecide"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/api-docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document (also /v3/api-docs.yaml). For operators: needs one of ops.admin, ops.operator (changeflow.monitoring.rule-codes). */
        get: operations["monitoringApiDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AcknowledgeForm: {
            reason?: string;
        };
        ActedJson: {
            item: components["schemas"]["DriftJson"];
            operationId: string | null;
        };
        AdoptForm: {
            until?: string;
        };
        ApiResponseActedJson: {
            code: string;
            data: components["schemas"]["ActedJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseCheckJson: {
            code: string;
            data: components["schemas"]["CheckJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseDeployActionJson: {
            code: string;
            data: components["schemas"]["DeployActionJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseDeployAnswerJson: {
            code: string;
            data: components["schemas"]["DeployAnswerJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseDetailsJson: {
            code: string;
            data: components["schemas"]["DetailsJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseExpiringJson: {
            code: string;
            data: components["schemas"]["ExpiringJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseGitLabHookAnswerJson: {
            code: string;
            data: components["schemas"]["GitLabHookAnswerJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseInstancesJson: {
            code: string;
            data: components["schemas"]["InstancesJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseListBatchJson: {
            code: string;
            data: components["schemas"]["BatchJson"][] | null;
            message: string;
            traceId: string;
        };
        ApiResponseListBindingJson: {
            code: string;
            data: components["schemas"]["BindingJson"][] | null;
            message: string;
            traceId: string;
        };
        ApiResponseListConfigEntry: {
            code: string;
            data: components["schemas"]["ConfigEntry"][] | null;
            message: string;
            traceId: string;
        };
        ApiResponseListDemoUser: {
            code: string;
            data: components["schemas"]["DemoUser"][] | null;
            message: string;
            traceId: string;
        };
        ApiResponseListDriftJson: {
            code: string;
            data: components["schemas"]["DriftJson"][] | null;
            message: string;
            traceId: string;
        };
        ApiResponseListMyDriftJson: {
            code: string;
            data: components["schemas"]["MyDriftJson"][] | null;
            message: string;
            traceId: string;
        };
        ApiResponseListRequestJson: {
            code: string;
            data: components["schemas"]["RequestJson"][] | null;
            message: string;
            traceId: string;
        };
        ApiResponseListTargetJson: {
            code: string;
            data: components["schemas"]["TargetJson"][] | null;
            message: string;
            traceId: string;
        };
        ApiResponseMeJson: {
            code: string;
            data: components["schemas"]["MeJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseNotificationPageJson: {
            code: string;
            data: components["schemas"]["NotificationPageJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseOverdueListJson: {
            code: string;
            data: components["schemas"]["OverdueListJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseOverviewJson: {
            code: string;
            data: components["schemas"]["OverviewJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponsePageJson: {
            code: string;
            data: components["schemas"]["PageJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponsePreviewJson: {
            code: string;
            data: components["schemas"]["PreviewJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseReconciliationJson: {
            code: string;
            data: components["schemas"]["ReconciliationJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseRequestJson: {
            code: string;
            data: components["schemas"]["RequestJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseRetriggerJson: {
            code: string;
            data: components["schemas"]["RetriggerJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseRoundJson: {
            code: string;
            data: components["schemas"]["RoundJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseSettlementJson: {
            code: string;
            data: components["schemas"]["SettlementJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseSignedInJson: {
            code: string;
            data: components["schemas"]["SignedInJson"] | null;
            message: string;
            traceId: string;
        };
        ApiResponseVoid: {
            code: string;
            data: null;
            message: string;
            traceId: string;
        };
        ApprovalCallbackJson: {
            decidedBy?: string;
            ext?: {
                [key: string]: string;
            };
            operationId?: string;
            requestId?: string;
            result?: string;
        };
        AuditJson: {
            action: string;
            actor: string;
            at: string;
            parameters: {
                [key: string]: string;
            } | null;
            subject: string | null;
        };
        BacklogJson: {
            /** Format: int32 */
            capacity: number;
            /** Format: int32 */
            dueNow: number;
            /** Format: int32 */
            failing: number;
            oldestDue: string | null;
            /** Format: int32 */
            running: number;
            /** Format: int32 */
            waiting: number;
        };
        BatchJson: {
            createdAt: string;
            /** Format: int32 */
            depth: number;
            detail: string | null;
            /** Format: int64 */
            id: number;
            members: components["schemas"]["RequestJson"][];
            mergeRequest: components["schemas"]["MergeRequestJson"] | null;
            partition: string;
            status: string;
            updatedAt: string;
        };
        BindingJson: {
            expiresAt: string | null;
            operationId: string;
            status: string;
            subjectId: string;
            targetKey: string;
            updatedAt: string;
        };
        CheckJson: {
            /** Format: int32 */
            blocking: number;
            findings: components["schemas"]["FindingJson"][];
        };
        ConfigEntry: {
            key: string;
            raw: string | null;
            resolved: string;
            rule: string | null;
            source: string | null;
        };
        DecisionBody: {
            decision?: string;
        };
        DemoUser: {
            account: string;
            email: string | null;
            employeeId: string | null;
            role: string | null;
        };
        DependencyJson: {
            breaker: string | null;
            /** Format: double */
            errorRatePercent: number | null;
            lastSeen: string | null;
            /** Format: int64 */
            notPermittedCalls: number;
            /** Format: int64 */
            recentCalls: number;
            /** Format: int64 */
            recentFailures: number;
            system: string;
        };
        DeployActionJson: {
            operationId: string;
            status: string;
        };
        DeployAnswerJson: {
            /** Format: int32 */
            advanced: number;
            /** Format: int32 */
            ignored: number;
        };
        DeployCallbackJson: {
            /** Format: int64 */
            mrIid?: number;
            operationIds?: string[];
            projectId?: string;
            ref?: string;
            sha?: string;
            status?: string;
        };
        DetailsJson: {
            allowedActions: string[];
            audit: components["schemas"]["AuditJson"][];
            /** Format: int64 */
            batchId: number | null;
            binding: components["schemas"]["BindingJson"] | null;
            createdAt: string;
            detail: string | null;
            duration: string | null;
            expiresAt: string | null;
            hint: components["schemas"]["HintJson"];
            history: components["schemas"]["HistoryJson"][];
            kind: string;
            mergeRequest: components["schemas"]["MergeRequestJson"] | null;
            operationId: string;
            previousGrant: string | null;
            reason: string;
            removal?: components["schemas"]["RemovalJson"];
            requester: string;
            retriggerStep: string | null;
            status: string | null;
            step: string;
            /** Format: int32 */
            stepCode: number;
            stepOrder: string;
            subjectId: string;
            targetKey: string;
            timeline?: components["schemas"]["TimelineJson"][];
            updatedAt: string;
            waiting?: components["schemas"]["WaitJson"];
        };
        DriftJson: {
            allowedActions: string[];
            commitSeen: string | null;
            evidence: components["schemas"]["EvidenceJson"];
            firstSeen: string;
            /** Format: int64 */
            id: number;
            kind: string;
            lastSeen: string;
            line: string;
            note: string;
            operationId: string | null;
            removalOperationId: string | null;
            status: string;
            statusActor: string;
            statusAt: string;
            statusNote: string;
            subjectId: string | null;
            targetKey: string;
        };
        /**
         * @description INVALID_REQUEST (400): The request is not valid; please correct it and try again.
         *     UNAUTHENTICATED (401): Sign-in required.
         *     INVALID_SIGNATURE (401): The callback signature is missing or invalid.
         *     INVALID_TOKEN (401): The webhook token is missing or wrong.
         *     ACCESS_DENIED (403): Access denied
         *     CROSS_SITE_REQUEST (403): Cross-site requests are refused; please use the app.
         *     SERVICE_CLOSED (403): Submissions are closed right now; please try again later.
         *     NOT_ALLOWED_FOR_SUBJECT (403): You may not do this for the person named; ask for yourself.
         *     NOT_FOUND (404): Not found.
         *     WEBHOOKS_OFF (404): GitLab webhooks are not configured on this service.
         *     REQUEST_IN_PROGRESS (409): A request for this subject and target is already in progress.
         *     ALREADY_IN_EFFECT (409): This access is already in effect for the subject.
         *     GRANT_NOT_IN_EFFECT (409): This access is not in effect right now; nothing was changed.
         *     GRANT_CHANGED (409): This access changed meanwhile; nothing was changed. Please look at it again.
         *     IDEMPOTENCY_IN_FLIGHT (409): Your earlier submission is still being checked; please retry in a moment.
         *     ACTION_NOT_ALLOWED (409): This action is not possible in the request's current state.
         *     ALREADY_MARKED_FAILED (409): This request's deploy is already marked failed; nothing was changed.
         *     ALREADY_SETTLED (409): This batch has already ended; nothing was changed.
         *     DRIFT_ALREADY_HANDLED (409): This drift item was already handled; nothing was changed. Please look again.
         *     DRIFT_ACTION_NOT_POSSIBLE (409): This action is not possible for this drift item right now.
         *     IDEMPOTENCY_KEY_REUSED (422): This operationId was already used for a different request; please start a new form.
         *     METHOD_NOT_ALLOWED (405): This method is not allowed here.
         *     NOT_ACCEPTABLE (406): Please accept application/json.
         *     PAYLOAD_TOO_LARGE (413): The request body is too large.
         *     UNSUPPORTED_MEDIA_TYPE (415): Unsupported content type; please send application/json.
         *     RATE_LIMITED (429): Too many requests; please try again later.
         *     INTERNAL_ERROR (500): Something went wrong on our side. Please quote the traceId if you contact support.
         *     UNAVAILABLE (503): A service we depend on is unavailable; please try again later.
         * @enum {string}
         */
        ErrorCode: "INVALID_REQUEST" | "UNAUTHENTICATED" | "INVALID_SIGNATURE" | "INVALID_TOKEN" | "ACCESS_DENIED" | "CROSS_SITE_REQUEST" | "SERVICE_CLOSED" | "NOT_ALLOWED_FOR_SUBJECT" | "NOT_FOUND" | "WEBHOOKS_OFF" | "REQUEST_IN_PROGRESS" | "ALREADY_IN_EFFECT" | "GRANT_NOT_IN_EFFECT" | "GRANT_CHANGED" | "IDEMPOTENCY_IN_FLIGHT" | "ACTION_NOT_ALLOWED" | "ALREADY_MARKED_FAILED" | "ALREADY_SETTLED" | "DRIFT_ALREADY_HANDLED" | "DRIFT_ACTION_NOT_POSSIBLE" | "IDEMPOTENCY_KEY_REUSED" | "METHOD_NOT_ALLOWED" | "NOT_ACCEPTABLE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UNAVAILABLE";
        /** @description Every error answer (Content-Type application/json, Cache-Control no-store). */
        ErrorEnvelope: {
            code: components["schemas"]["ErrorCode"];
            data: null | {
                fieldErrors: components["schemas"]["FieldError"][];
            } | {
                retryAfterSeconds: number;
            };
            /** @description Safe to show to a person; never an exception message or upstream body. */
            message: string;
            /** @description Quote it: it finds the server's log lines of the request. */
            traceId: string;
        };
        EvidenceJson: {
            author: string | null;
            commitSha: string | null;
            committedAt: string | null;
        };
        ExpiringJson: {
            /** Format: int64 */
            count: number;
            grants: components["schemas"]["BindingJson"][];
            hasMore: boolean;
            within: string;
        };
        FieldError: {
            /** @description REQUIRED, INVALID_FORMAT, TOO_LONG, INVALID_CHARACTERS, IN_THE_PAST, TOO_FAR, UNKNOWN, INVALID_VALUE, UNKNOWN_USER. */
            code: string;
            /** @description The field or parameter, e.g. targetKey. */
            field: string;
            /** @description Safe to show. */
            message: string;
        };
        FindingJson: {
            action: string;
            project: string;
            severity: string;
            what: string;
            why: string;
        };
        GitLabEventJson: {
            merge_request?: {
                [key: string]: unknown;
            };
            object_attributes?: {
                [key: string]: unknown;
            };
            object_kind?: string;
            project?: {
                [key: string]: unknown;
            };
        };
        GitLabHookAnswerJson: {
            /** Format: int32 */
            woken: number;
        };
        HealthStatus: {
            /** @description UP, DOWN, OUT_OF_SERVICE or UNKNOWN. Operators also get components and details. */
            status: string;
        };
        HintJson: {
            code: string;
            message: string;
        };
        HistoryJson: {
            actor: string | null;
            at: string;
            detail: string | null;
            event: string;
            fromStatus: string | null;
            fromStep: string | null;
            toStatus: string | null;
            toStep: string;
        };
        HourJson: {
            /** Format: int64 */
            completed: number;
            /** Format: int64 */
            failed: number;
            start: string;
        };
        InstanceJson: {
            commit: string;
            lastSeen: string;
            name: string;
            /** Format: int64 */
            secondsSinceSeen: number;
            startedAt: string;
            state: string;
            stoppedAt: string | null;
            version: string;
        };
        InstancesJson: {
            at: string;
            instances: components["schemas"]["InstanceJson"][];
            mixed: boolean;
            versions: string[];
        };
        LoginForm: {
            user?: string;
        };
        MeJson: {
            account: string;
            permissions: string[];
            sandbox: boolean;
            submissionsOpen: boolean;
            verified: boolean;
        };
        MergeRequestJson: {
            /** Format: int64 */
            iid: number;
            project: string;
            webUrl: string;
        };
        MyDriftJson: {
            asSubject: boolean;
            item: components["schemas"]["DriftJson"];
        };
        NotificationJson: {
            /** Format: int32 */
            attempts: number;
            channel: string;
            /** Format: int64 */
            id: number;
            lastError: string | null;
            link: string;
            nextAttempt: string;
            queuedAt: string;
            recipient: string;
            recipientKind: string;
            sentAt: string | null;
            state: string;
            title: string;
        };
        NotificationPageJson: {
            /** Format: int64 */
            nextBefore: number | null;
            notifications: components["schemas"]["NotificationJson"][];
        };
        OverdueJson: {
            atDeadline: string;
            /** Format: int64 */
            batchId: number | null;
            createdAt: string;
            deadline: string;
            deadlineKey: string;
            detail: string | null;
            dueAt: string;
            duration: string | null;
            expiresAt: string | null;
            hint: components["schemas"]["HintJson"];
            kind: string;
            mergeRequest: components["schemas"]["MergeRequestJson"] | null;
            nextMove: string;
            operationId: string;
            /** Format: int64 */
            overdueSeconds: number;
            owner: string;
            previousGrant: string | null;
            reason: string;
            removal?: components["schemas"]["RemovalJson"];
            requester: string;
            status: string | null;
            step: string;
            /** Format: int32 */
            stepCode: number;
            stepOrder: string;
            subjectId: string;
            targetKey: string;
            timeline?: components["schemas"]["TimelineJson"][];
            updatedAt: string;
            waiting?: components["schemas"]["WaitJson"];
        };
        OverdueListJson: {
            /** Format: int32 */
            examined: number;
            overdue: components["schemas"]["OverdueJson"][];
        };
        OverviewJson: {
            at: string;
            backlog: components["schemas"]["BacklogJson"] | null;
            dependencies: components["schemas"]["DependencyJson"][];
            hours: components["schemas"]["HourJson"][];
            slots: components["schemas"]["SlotJson"][];
            states: components["schemas"]["StateJson"][];
            waiting: components["schemas"]["WaitingJson"][];
        };
        PageJson: {
            hasMore: boolean;
            items: components["schemas"]["RequestJson"][];
            /** Format: int32 */
            page: number;
            /** Format: int32 */
            size: number;
        };
        PreviewJson: {
            addedLine: string;
            filePath: string;
            project: string;
            removedLine: string | null;
        };
        ReconciliationJson: {
            /** Format: int32 */
            advanced: number;
            /** Format: int32 */
            examined: number;
        };
        RemovalJson: {
            by: string;
            cause: string;
        };
        RequestJson: {
            /** Format: int64 */
            batchId: number | null;
            createdAt: string;
            detail: string | null;
            duration: string | null;
            expiresAt: string | null;
            hint: components["schemas"]["HintJson"];
            kind: string;
            mergeRequest: components["schemas"]["MergeRequestJson"] | null;
            operationId: string;
            previousGrant: string | null;
            reason: string;
            removal?: components["schemas"]["RemovalJson"];
            requester: string;
            status: string | null;
            step: string;
            /** Format: int32 */
            stepCode: number;
            stepOrder: string;
            subjectId: string;
            targetKey: string;
            timeline?: components["schemas"]["TimelineJson"][];
            updatedAt: string;
            waiting?: components["schemas"]["WaitJson"];
        };
        RetriggerJson: {
            operationId: string;
            scheduled: boolean;
            step: string;
        };
        RoundJson: {
            /** Format: int64 */
            batchId: number | null;
            members: string[] | null;
            partition: string;
            scheduled: boolean | null;
        };
        SandboxEnvelope: {
            code: string;
            data: unknown;
            message: string;
            traceId: string;
        };
        SettlementJson: {
            /** Format: int64 */
            batchId: number;
            batchStatus: string | null;
            failureKind: string | null;
            outcome: string;
            plan: string | null;
        };
        SignedInJson: {
            account: string;
        };
        SlotJson: {
            /** Format: int64 */
            batchId: number | null;
            batchStatus: string | null;
            partition: string;
            since: string | null;
            /** Format: int64 */
            waiting: number;
        };
        StateJson: {
            /** Format: int64 */
            count: number;
            status: string;
        };
        StatsJson: {
            /** Format: int64 */
            closed: number;
            /** Format: int64 */
            failed: number;
            /** Format: int64 */
            inProgress: number;
            /** Format: int64 */
            rejected: number;
            /** Format: int64 */
            requests: number;
            /** Format: int64 */
            validated: number;
        };
        SubmitForm: {
            duration?: string;
            expiresAt?: string;
            operationId?: string;
            reason?: string;
            subjectId?: string;
            targetKey?: string;
        };
        TargetJson: {
            allowsDurations: boolean;
            allowsNever: boolean;
            batchable: boolean;
            defaultDuration: string | null;
            description: string;
            key: string;
            maxDuration: string | null;
            name: string;
        };
        TimelineJson: {
            at: string;
            detail: string | null;
            event: string;
            status: string | null;
            step: string;
        };
        WaitingJson: {
            atDeadline: string;
            /** Format: int64 */
            count: number;
            deadline: string | null;
            deadlineKey: string | null;
            nextDeadline: string | null;
            /** Format: int64 */
            oldestAgeSeconds: number;
            oldestSince: string;
            owner: string;
            status: string;
        };
        WaitJson: {
            /** Format: int64 */
            checkedEverySeconds: number | null;
            deadline: string | null;
            failing: string | null;
            nextAttemptAt: string | null;
            since: string;
            waitingFor: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request's traceId, as in the envelope and the server's log lines. */
        TraceId: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    monitoringHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description UP. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not UP. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
        };
    };
    monitoringLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description UP. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not UP. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
        };
    };
    monitoringReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description UP. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not UP. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
        };
    };
    monitoringInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    monitoringPrometheus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    userBindings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseListBindingJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    grantsGiveUp: {
        parameters: {
            query?: {
                subjectId?: string;
            };
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path: {
                targetKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code REMOVAL_ACCEPTED. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "REMOVAL_ACCEPTED";
                    } & components["schemas"]["ApiResponseRequestJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             *     NOT_ALLOWED_FOR_SUBJECT: You may not do this for the person named; ask for yourself.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST" | "NOT_ALLOWED_FOR_SUBJECT";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description GRANT_NOT_IN_EFFECT: This access is not in effect right now; nothing was changed.
             *     GRANT_CHANGED: This access changed meanwhile; nothing was changed. Please look at it again.
             */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "GRANT_NOT_IN_EFFECT" | "GRANT_CHANGED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    driftMine: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseListMyDriftJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    userMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseMeJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    requestsMine: {
        parameters: {
            query?: {
                page?: number;
                size?: number;
                status?: string;
                targetKey?: string;
            };
            header?: {
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    /** @description private, no-cache: revalidate every time */
                    "Cache-Control"?: string;
                    /** @description Weak entity tag of what the answer shows (W/"..."); send it back in If-None-Match to get 304 while nothing shown changed. */
                    ETag?: string;
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponsePageJson"];
                };
            };
            /** @description Not modified: If-None-Match names the current entity tag. No body; the same ETag. */
            304: {
                headers: {
                    /** @description private, no-cache: revalidate every time */
                    "Cache-Control"?: string;
                    /** @description Weak entity tag of what the answer shows (W/"..."); send it back in If-None-Match to get 304 while nothing shown changed. */
                    ETag?: string;
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    requestsSubmit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubmitForm"];
            };
        };
        responses: {
            /** @description Envelope code ACCEPTED or DUPLICATE_SUBMIT. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCEPTED" | "DUPLICATE_SUBMIT";
                    } & components["schemas"]["ApiResponseRequestJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             *     SERVICE_CLOSED: Submissions are closed right now; please try again later.
             *     NOT_ALLOWED_FOR_SUBJECT: You may not do this for the person named; ask for yourself.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST" | "SERVICE_CLOSED" | "NOT_ALLOWED_FOR_SUBJECT";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description REQUEST_IN_PROGRESS: A request for this subject and target is already in progress.
             *     ALREADY_IN_EFFECT: This access is already in effect for the subject.
             *     IDEMPOTENCY_IN_FLIGHT: Your earlier submission is still being checked; please retry in a moment.
             */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "REQUEST_IN_PROGRESS" | "ALREADY_IN_EFFECT" | "IDEMPOTENCY_IN_FLIGHT";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED: This operationId was already used for a different request; please start a new form. */
            422: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "IDEMPOTENCY_KEY_REUSED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; please try again later. */
            429: {
                headers: {
                    /** @description Remaining and seconds until the oldest counted attempt leaves the window, e.g. "apply";r=0;t=42. */
                    RateLimit?: string;
                    /** @description Quota and window, e.g. "apply";q=10;w=60. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until a retry can succeed. */
                    "Retry-After"?: number;
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "RATE_LIMITED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    requestsShow: {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                operationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    /** @description private, no-cache: revalidate every time */
                    "Cache-Control"?: string;
                    /** @description Weak entity tag of what the answer shows (W/"..."); send it back in If-None-Match to get 304 while nothing shown changed. */
                    ETag?: string;
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseRequestJson"];
                };
            };
            /** @description Not modified: If-None-Match names the current entity tag. No body; the same ETag. */
            304: {
                headers: {
                    /** @description private, no-cache: revalidate every time */
                    "Cache-Control"?: string;
                    /** @description Weak entity tag of what the answer shows (W/"..."); send it back in If-None-Match to get 304 while nothing shown changed. */
                    ETag?: string;
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    requestsPreview: {
        parameters: {
            query?: {
                expiresAt?: string;
                operationId?: string;
                subjectId?: string;
                targetKey?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK or PREVIEW_UNAVAILABLE. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK" | "PREVIEW_UNAVAILABLE";
                    } & components["schemas"]["ApiResponsePreviewJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; please try again later. */
            429: {
                headers: {
                    /** @description Remaining and seconds until the oldest counted attempt leaves the window, e.g. "apply";r=0;t=42. */
                    RateLimit?: string;
                    /** @description Quota and window, e.g. "apply";q=10;w=60. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until a retry can succeed. */
                    "Retry-After"?: number;
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "RATE_LIMITED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    userTargets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseListTargetJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    callbacksApproval: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks signature header; verified over the raw body before anything is read. */
                "webhook-id": string;
                /** @description Standard Webhooks signature header; verified over the raw body before anything is read. */
                "webhook-signature": string;
                /** @description Standard Webhooks signature header; verified over the raw body before anything is read. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ApprovalCallbackJson"];
            };
        };
        responses: {
            /** @description Envelope code PROCESSED or DUPLICATE or IGNORED_STALE. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PROCESSED" | "DUPLICATE" | "IGNORED_STALE";
                    } & components["schemas"]["ApiResponseVoid"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INVALID_SIGNATURE: The callback signature is missing or invalid. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_SIGNATURE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    callbacksDeploy: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks signature header; verified over the raw body before anything is read. */
                "webhook-id": string;
                /** @description Standard Webhooks signature header; verified over the raw body before anything is read. */
                "webhook-signature": string;
                /** @description Standard Webhooks signature header; verified over the raw body before anything is read. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["DeployCallbackJson"];
            };
        };
        responses: {
            /** @description Envelope code PROCESSED or DUPLICATE. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PROCESSED" | "DUPLICATE";
                    } & components["schemas"]["ApiResponseDeployAnswerJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INVALID_SIGNATURE: The callback signature is missing or invalid. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_SIGNATURE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    gitLabHooksHook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["GitLabEventJson"];
            };
        };
        responses: {
            /** @description Envelope code PROCESSED or DUPLICATE or IGNORED_STALE. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PROCESSED" | "DUPLICATE" | "IGNORED_STALE";
                    } & components["schemas"]["ApiResponseGitLabHookAnswerJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INVALID_TOKEN: The webhook token is missing or wrong. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_TOKEN";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description WEBHOOKS_OFF: GitLab webhooks are not configured on this service. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "WEBHOOKS_OFF";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    auditExportGrants: {
        parameters: {
            query?: {
                after?: string;
                format?: string;
                from?: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    batchesRound: {
        parameters: {
            query?: {
                partition?: string;
            };
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code CLAIMED or SLOT_OCCUPIED or NOTHING_TO_CLAIM. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "CLAIMED" | "SLOT_OCCUPIED" | "NOTHING_TO_CLAIM";
                    } & components["schemas"]["ApiResponseRoundJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    batchesRecent: {
        parameters: {
            query?: {
                limit?: number;
                partition?: string;
                status?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseListBatchJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    batchesSettle: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code SETTLED. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "SETTLED";
                    } & components["schemas"]["ApiResponseSettlementJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ALREADY_SETTLED: This batch has already ended; nothing was changed. */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ALREADY_SETTLED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    grantsRevoke: {
        parameters: {
            query?: {
                urgent?: string;
            };
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path: {
                subjectId: string;
                targetKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code REMOVAL_ACCEPTED. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "REMOVAL_ACCEPTED";
                    } & components["schemas"]["ApiResponseRequestJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description GRANT_NOT_IN_EFFECT: This access is not in effect right now; nothing was changed.
             *     GRANT_CHANGED: This access changed meanwhile; nothing was changed. Please look at it again.
             */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "GRANT_NOT_IN_EFFECT" | "GRANT_CHANGED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    configConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseListConfigEntry"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    driftList: {
        parameters: {
            query?: {
                kind?: string;
                limit?: number;
                status?: string;
                targetKey?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseListDriftJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    driftAcknowledge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AcknowledgeForm"];
            };
        };
        responses: {
            /** @description Envelope code ACKNOWLEDGED. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACKNOWLEDGED";
                    } & components["schemas"]["ApiResponseActedJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description DRIFT_ALREADY_HANDLED: This drift item was already handled; nothing was changed. Please look again. */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "DRIFT_ALREADY_HANDLED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    driftAdopt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AdoptForm"];
            };
        };
        responses: {
            /** @description Envelope code ADOPTED. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ADOPTED";
                    } & components["schemas"]["ApiResponseActedJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             *     SERVICE_CLOSED: Submissions are closed right now; please try again later.
             *     NOT_ALLOWED_FOR_SUBJECT: You may not do this for the person named; ask for yourself.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST" | "SERVICE_CLOSED" | "NOT_ALLOWED_FOR_SUBJECT";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description REQUEST_IN_PROGRESS: A request for this subject and target is already in progress.
             *     ALREADY_IN_EFFECT: This access is already in effect for the subject.
             *     DRIFT_ALREADY_HANDLED: This drift item was already handled; nothing was changed. Please look again.
             *     DRIFT_ACTION_NOT_POSSIBLE: This action is not possible for this drift item right now.
             */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "REQUEST_IN_PROGRESS" | "ALREADY_IN_EFFECT" | "DRIFT_ALREADY_HANDLED" | "DRIFT_ACTION_NOT_POSSIBLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    driftRemove: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code REMOVING. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "REMOVING";
                    } & components["schemas"]["ApiResponseActedJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description DRIFT_ALREADY_HANDLED: This drift item was already handled; nothing was changed. Please look again.
             *     DRIFT_ACTION_NOT_POSSIBLE: This action is not possible for this drift item right now.
             */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "DRIFT_ALREADY_HANDLED" | "DRIFT_ACTION_NOT_POSSIBLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    gitLabCheckCheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseCheckJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    grantsExpiring: {
        parameters: {
            query?: {
                limit?: number;
                within?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseExpiringJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    instancesInstances: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseInstancesJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    notificationsList: {
        parameters: {
            query?: {
                before?: string;
                limit?: number;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseNotificationPageJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    operationsFind: {
        parameters: {
            query?: {
                limit?: number;
                status?: string;
                stuckForSeconds?: number;
                targetKey?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseListRequestJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    operationsShow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                operationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseDetailsJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    operationsClose: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path: {
                operationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code CLOSED or MERGED_WINS or RETRY_LATER. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "CLOSED" | "MERGED_WINS" | "RETRY_LATER";
                    } & components["schemas"]["ApiResponseVoid"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACTION_NOT_ALLOWED: This action is not possible in the request's current state. */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACTION_NOT_ALLOWED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    operationsConfirmDeployed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path: {
                operationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code CONFIRMED. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "CONFIRMED";
                    } & components["schemas"]["ApiResponseDeployActionJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ALREADY_IN_EFFECT: This access is already in effect for the subject.
             *     ACTION_NOT_ALLOWED: This action is not possible in the request's current state.
             */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ALREADY_IN_EFFECT" | "ACTION_NOT_ALLOWED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    operationsMarkDeployFailed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path: {
                operationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code MARKED_FAILED. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "MARKED_FAILED";
                    } & components["schemas"]["ApiResponseDeployActionJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACTION_NOT_ALLOWED: This action is not possible in the request's current state.
             *     ALREADY_MARKED_FAILED: This request's deploy is already marked failed; nothing was changed.
             */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACTION_NOT_ALLOWED" | "ALREADY_MARKED_FAILED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    operationsRetrigger: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path: {
                operationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code RETRIGGERED or NOT_SCHEDULED. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "RETRIGGERED" | "NOT_SCHEDULED";
                    } & components["schemas"]["ApiResponseRetriggerJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: Not found. */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "NOT_FOUND";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACTION_NOT_ALLOWED: This action is not possible in the request's current state. */
            409: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACTION_NOT_ALLOWED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    overdueOverdue: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseOverdueListJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    overviewOverview: {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    /** @description private, no-cache: revalidate every time */
                    "Cache-Control"?: string;
                    /** @description Weak entity tag of what the answer shows (W/"..."); send it back in If-None-Match to get 304 while nothing shown changed. */
                    ETag?: string;
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseOverviewJson"];
                };
            };
            /** @description Not modified: If-None-Match names the current entity tag. No body; the same ETag. */
            304: {
                headers: {
                    /** @description private, no-cache: revalidate every time */
                    "Cache-Control"?: string;
                    /** @description Weak entity tag of what the answer shows (W/"..."); send it back in If-None-Match to get 304 while nothing shown changed. */
                    ETag?: string;
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    operationsReconcile: {
        parameters: {
            query?: {
                limit?: number;
            };
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code RECONCILED. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "RECONCILED";
                    } & components["schemas"]["ApiResponseReconciliationJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    operationsStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatsJson"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    demoLoginDemoUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "OK";
                    } & components["schemas"]["ApiResponseListDemoUser"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    faultsAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    faultsClear: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    faultsConfigure: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                system: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    approvalControlsRead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    approvalControlsChange: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deployCommitReportsReport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deployControlsRead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deployControlsChange: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    faultsReseed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    faultsReceived: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                traceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    demoLoginLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginForm"];
            };
        };
        responses: {
            /** @description Envelope code SIGNED_IN. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "SIGNED_IN";
                    } & components["schemas"]["ApiResponseSignedInJson"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app. */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    demoLoginLogout: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Any non-blank value: a write without a JSON body needs it (cross-site requests are refused, docs/api.md).
                 * @example XMLHttpRequest
                 */
                "X-Requested-With": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Envelope code SIGNED_OUT. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "SIGNED_OUT";
                    } & components["schemas"]["ApiResponseVoid"];
                };
            };
            /** @description CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app. */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    approverInboxPending: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    approverInboxDecide: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticket: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecisionBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxEnvelope"];
                };
            };
            /** @description INVALID_REQUEST: The request is not valid; please correct it and try again. */
            400: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INVALID_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description ACCESS_DENIED: Access denied
             *     CROSS_SITE_REQUEST: Cross-site requests are refused; please use the app.
             */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED" | "CROSS_SITE_REQUEST";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The request body is too large. */
            413: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "PAYLOAD_TOO_LARGE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Unsupported content type; please send application/json. */
            415: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    monitoringApiDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UNAUTHENTICATED: Sign-in required. */
            401: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAUTHENTICATED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description ACCESS_DENIED: Access denied */
            403: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "ACCESS_DENIED";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: Something went wrong on our side. Please quote the traceId if you contact support. */
            500: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "INTERNAL_ERROR";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: A service we depend on is unavailable; please try again later. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["TraceId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code?: "UNAVAILABLE";
                    } & components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
