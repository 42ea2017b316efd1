package io.changeflow.archfixture.adapter.web.identity;

import io.changeflow.archfixture.adapter.web.api.ApiUsingIdentity;

/** Deliberate violation: the identity package using the api package above it, which uses identity (a cycle). */
public class IdentityUsingApi {

    ApiUsingIdentity controller = new ApiUsingIdentity();
}
