"""template.yaml serves the ask page from the stack, and its calls pass the company's identity provider.

The page's HTTP API: public page files, ``POST /v1/ask`` behind a JWT authorizer whose issuer and
audience are template parameters, and a Cognito user pool only when no issuer is given.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.cfn import load_template

COGNITO_ISSUER = {"Fn::Sub": "https://cognito-idp.${AWS::Region}.${AWS::URLSuffix}/${PageUserPool}"}
PUBLIC_ROUTES = ("GET /", "GET /documents", "GET /feedback", "GET /ui/{proxy+}")
PAGE_API_ROUTES = ("GET /v1/evidence", "GET /v1/documents", "GET /v1/documents/facts", "GET /v1/feedback",
                   "POST /v1/feedback")
PAGE_URL = {"Fn::Sub": "https://${PageApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/"}


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def _of_type(template: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {name: r for name, r in template["Resources"].items() if r["Type"] == kind}


def test_issuer_and_audience_are_parameters_and_the_audience_is_required_with_an_issuer(
        template: dict[str, Any]) -> None:
    for name in ("PageIssuer", "PageAudience", "PageClientId"):
        assert template["Parameters"][name] == {**template["Parameters"][name], "Type": "String", "Default": ""}
    rule = template["Rules"]["PageAudienceWithIssuer"]
    assert rule["Assertions"][0]["Assert"] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "PageAudience"}, ""]}]}


def test_the_authorizer_checks_the_companys_issuer_or_the_stacks_own_user_pool(template: dict[str, Any]) -> None:
    authorizer = template["Resources"]["PageAuthorizer"]["Properties"]
    assert authorizer["AuthorizerType"] == "JWT"
    assert authorizer["IdentitySource"] == ["$request.header.Authorization"]
    jwt = authorizer["JwtConfiguration"]
    assert jwt["Issuer"] == {"Fn::If": ["HasPageIssuer", {"Ref": "PageIssuer"}, COGNITO_ISSUER]}
    assert jwt["Audience"] == [{"Fn::If": ["HasPageIssuer", {"Ref": "PageAudience"}, {"Ref": "PageUserPoolClient"}]}]
    assert template["Conditions"]["CreatePageUserPool"] == {"Fn::Equals": [{"Ref": "PageIssuer"}, ""]}
    for name in ("PageUserPool", "PageUserPoolDomain", "PageUserPoolClient"):
        assert template["Resources"][name]["Condition"] == "CreatePageUserPool", name


def test_only_the_page_files_are_public_and_every_other_route_needs_a_jwt(template: dict[str, Any]) -> None:
    routes = {r["Properties"]["RouteKey"]: r["Properties"] for r in _of_type(template, "AWS::ApiGatewayV2::Route").values()
              if r["Properties"]["ApiId"] == {"Ref": "PageApi"}}
    assert set(routes) >= {*PUBLIC_ROUTES, "POST /v1/ask", *PAGE_API_ROUTES}
    for key, route in routes.items():
        if key in PUBLIC_ROUTES:
            assert route["AuthorizationType"] == "NONE", key
            assert route["Target"] == {"Fn::Sub": "integrations/${PageFilesIntegration}"}, key
        else:
            assert route["AuthorizationType"] == "JWT" and route["AuthorizerId"] == {"Ref": "PageAuthorizer"}, key
    ask = template["Resources"]["PageAskIntegration"]["Properties"]
    # the alias of the published (SnapStart) version, as the REST API's events invoke it
    assert ask["IntegrationUri"] == {"Ref": "AskFunction.Alias"} and ask["PayloadFormatVersion"] == "1.0"
    assert template["Resources"]["PageAskPermission"]["Properties"]["FunctionName"] == {"Ref": "AskFunction.Alias"}


def test_the_user_pool_client_is_public_with_code_flow_and_the_page_as_its_redirect(template: dict[str, Any]) -> None:
    client = template["Resources"]["PageUserPoolClient"]["Properties"]
    assert client["GenerateSecret"] is False and client["AllowedOAuthFlows"] == ["code"]
    assert client["CallbackURLs"] == [PAGE_URL] and template["Outputs"]["PageUrl"]["Value"] == PAGE_URL
    pool = template["Resources"]["PageUserPool"]["Properties"]
    assert pool["AdminCreateUserConfig"]["AllowAdminCreateUserOnly"] is True


def test_the_page_function_tells_the_page_where_to_sign_in(template: dict[str, Any]) -> None:
    variables = template["Resources"]["PageFunction"]["Properties"]["Environment"]["Variables"]
    assert variables["RAGSPINE_PAGE_ISSUER"] == {"Fn::If": ["HasPageIssuer", {"Ref": "PageIssuer"}, COGNITO_ISSUER]}
    assert variables["RAGSPINE_PAGE_CLIENT_ID"]["Fn::If"][0] == "HasPageClientId"
    for name in ("RAGSPINE_PAGE_AUTHORIZE_URL", "RAGSPINE_PAGE_EXCHANGE_URL"):
        condition, company, cognito = variables[name]["Fn::If"]
        assert condition == "HasPageIssuer" and company == "" and "${PageUserPoolDomain}.auth." in cognito["Fn::Sub"]


def test_the_page_api_routes_go_to_the_page_function_which_may_invoke_it(template: dict[str, Any]) -> None:
    routes = {r["Properties"]["RouteKey"]: r["Properties"] for r in _of_type(template, "AWS::ApiGatewayV2::Route").values()
              if r["Properties"]["ApiId"] == {"Ref": "PageApi"}}
    for key in PAGE_API_ROUTES:
        assert routes[key]["Target"] == {"Fn::Sub": "integrations/${PageFilesIntegration}"}, key
    permissions = [r["Properties"]["SourceArn"]["Fn::Sub"] for r in _of_type(template, "AWS::Lambda::Permission").values()
                   if r["Properties"]["FunctionName"] == {"Ref": "PageFunction"}]
    assert any(arn.endswith("/*/GET/*") for arn in permissions)
    assert any(arn.endswith("/*/POST/v1/feedback") for arn in permissions)


def _statements(template: dict[str, Any], function: str) -> list[dict[str, Any]]:
    return [s for policy in template["Resources"][function]["Properties"]["Policies"] for s in policy["Statement"]]


def test_the_page_function_reads_what_it_shows_and_writes_only_feedback(template: dict[str, Any]) -> None:
    statements = _statements(template, "PageFunction")
    actions = {a for s in statements for a in s["Action"]}
    writes = {a for a in actions if not a.split(":")[1].startswith(("Get", "Query", "BatchGet"))}
    assert writes == {"dynamodb:PutItem"}
    (feedback,) = [s for s in statements if "dynamodb:PutItem" in s["Action"]]
    assert feedback["Resource"] == [{"Fn::GetAtt": ["FeedbackTable", "Arn"]}]
    (s3,) = [s for s in statements if "s3:GetObject" in s["Action"]]
    assert all(not r["Fn::Sub"].endswith("/staging/*") for r in s3["Resource"])
    assert all(s["Effect"] == "Allow" and "*" not in str(s["Action"]) for s in statements)
    variables = template["Resources"]["PageFunction"]["Properties"]["Environment"]["Variables"]
    assert variables["RAGSPINE_FEEDBACK_TABLE"] == {"Ref": "FeedbackTable"}
    table = template["Resources"]["FeedbackTable"]
    assert table["DeletionPolicy"] == "Retain" and table["Properties"]["SSESpecification"] == {"SSEEnabled": True}


def test_the_stacks_own_pool_has_the_administrators_group_the_page_function_checks(template: dict[str, Any]) -> None:
    group = template["Resources"]["PageAdminsGroup"]
    assert group["Condition"] == "CreatePageUserPool"
    variables = template["Resources"]["PageFunction"]["Properties"]["Environment"]["Variables"]
    assert group["Properties"]["GroupName"] == variables["RAGSPINE_PAGE_ADMIN_GROUP"] == "ragspine-admins"
