"""The organiser's stages: listed, added, changed and deleted; the cut into one previewed, confirmed (the
organiser choosing among those tied at the line) and undone. Each write is one call into
scoring.services.stages; what it refuses is shown by its field, nothing saved."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from rules.errors import Refusal
from scoring.services import stages as services
from tournament.models import Event, Stage
from web import refusals
from web import stage_presenters as presenters
from web.stage_forms import CutForm, StageForm
from web.views.console import organised


def _stage(event: Event, number: int) -> Stage:
    try:
        return services.stage_get(event, number)
    except Refusal:
        raise Http404("this event has no such stage") from None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def stages(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's stages, and a form to add one after the last."""
    event = organised(request, slug)
    form = StageForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        try:
            stage = services.stage_add(event=event, data=form.data_for_service(), user=request.user)
        except Refusal as exc:
            form.add_service_problems(exc.problems)
        else:
            messages.success(request, _("%(name)s is added as stage %(n)s.") % {"name": stage.name, "n": stage.number})
            return redirect("console-stages", slug=event.slug)
    return render(
        request, "console/stages.html", {"event": event, "stages": presenters.stage_summaries(event), "form": form}
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def stage_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = organised(request, slug)
    stage = _stage(event, number)
    form = StageForm(request.POST or None, event=event, stage=stage)
    if request.method == "POST" and form.is_valid():
        try:
            services.stage_change(stage=stage, data=form.data_for_service(), user=request.user)
        except Refusal as exc:
            form.add_service_problems(exc.problems)
        else:
            messages.success(request, _("Stage %(n)s is saved.") % {"n": number})
            return redirect("console-stages", slug=event.slug)
    return render(request, "console/stage_edit.html", {"event": event, "stage": stage, "form": form})


@login_required
@require_POST
def stage_delete(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = organised(request, slug)
    stage = _stage(event, number)
    try:
        services.stage_delete(stage=stage, user=request.user)
    except Refusal as exc:
        refusals.as_messages(request, exc)
    else:
        messages.success(request, _("Stage %(n)s (%(name)s) is deleted.") % {"n": number, "name": stage.name})
    return redirect("console-stages", slug=event.slug)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def stage_cut(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The cut into the stage as the standings give it now; "Confirm" with the tied ones ticked decides it."""
    event = organised(request, slug)
    stage = _stage(event, number)
    try:
        view = presenters.cut_view(services.cut_preview(stage))
    except Refusal as exc:  # the first stage, or the stage before not entered yet
        return render(
            request,
            "console/stage_cut.html",
            {"event": event, "stage": stage, "view": None, "refused": "; ".join(refusals.texts(exc))},
            status=409 if request.method == "POST" else 200,
        )
    tied = [] if view.confirmed else [(row.id, row.name) for row in view.tied]
    # Bound on any POST: a cut without a tie posts no field.
    form = CutForm(request.POST if request.method == "POST" else None, tied=tied, places=view.places)
    if request.method == "POST" and form.is_valid():
        chosen = form.cleaned_data["through"]
        through = [*view.preview.cut.through, *chosen] if tied else None
        try:
            services.cut_confirm(stage=stage, through=through, user=request.user)
        except Refusal as exc:
            form.add_service_problems(exc.problems)
        else:
            messages.success(request, _("The cut into %(name)s is confirmed.") % {"name": stage.name})
            return redirect("console-cut", slug=event.slug, number=number)
    boxes = list(zip(view.tied, form["through"], strict=True)) if tied else []
    return render(
        request,
        "console/stage_cut.html",
        {
            "event": event,
            "stage": stage,
            "view": view,
            "form": form,
            "tie_rows": boxes,
            **presenters.cut_context(event, number),
        },
    )


@login_required
@require_POST
def stage_cut_undo(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = organised(request, slug)
    stage = _stage(event, number)
    try:
        services.cut_undo(stage=stage, user=request.user)
    except Refusal as exc:
        refusals.as_messages(request, exc)
    else:
        messages.success(
            request,
            _("The cut into %(name)s is undone: its players are not known until it is confirmed again.")
            % {"name": stage.name},
        )
    return redirect("console-cut", slug=event.slug, number=number)
