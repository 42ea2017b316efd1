package io.changeflow.archfixture.domain;

import org.springframework.stereotype.Component;

/** Deliberate violation: a domain class that uses Spring. */
@Component
public class SpringInDomain {
}
