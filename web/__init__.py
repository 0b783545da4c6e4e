"""What people see in a browser: the public pages, the referee's entry, and the admin.

Views parse the request, make one call into a service or a presenter and
render a template from templates/; presenters read stored rows into what a
page shows (no scoring here: every number comes from the stored results and
standings, so the pages say exactly what the API says).
"""
