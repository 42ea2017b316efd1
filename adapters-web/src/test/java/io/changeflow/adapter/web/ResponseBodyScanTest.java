package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ResponseBodyScanTest {

    @Test
    @Order(1)
    void theScanFlagsStackTracesClassNamesAndSql() {
        var leaky = new ResponseCorpus.Captured("sample", """
                {"message":"java.lang.IllegalStateException: boom
                \tat io.changeflow.Foo.bar(Foo.java:12)
                SELECT id FROM operation WHERE x = 1"}""");
        assertThat(ResponseCorpus.leaksIn(leaky)).hasSizeGreaterThanOrEqualTo(4);
        assertThat(ResponseCorpus.leaksIn(new ResponseCorpus.Captured("clean",
                "{\"code\":\"INTERNAL_ERROR\",\"message\":\"Something went wrong on our side.\",\"data\":null,\"traceId\":\"ab\"}")))
                .isEmpty();
        ResponseCorpus.record("clean sample", "{\"code\":\"OK\"}");
    }

    @Test
    @Order(2)
    void theScanRunsAfterEveryTestOfTheModule() {
        assertThat(ResponseCorpus.scanned()).as("the body recorded by the previous test was scanned").isPositive();
    }
}
