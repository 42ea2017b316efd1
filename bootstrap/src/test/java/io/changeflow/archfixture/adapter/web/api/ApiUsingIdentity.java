package io.changeflow.archfixture.adapter.web.api;

import io.changeflow.archfixture.adapter.web.identity.IdentityUsingApi;

/** The api side of the fixture's cycle: allowed on its own (api may use identity). */
public class ApiUsingIdentity {

    IdentityUsingApi caller;
}
